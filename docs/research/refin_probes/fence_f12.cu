__global__ void a(int *p) { p[threadIdx.x] = 1; __threadfence(); p[0] = 2; }
__global__ void b(int *p) { p[threadIdx.x] = 3; }
__device__ __noinline__ void h(int *p) { p[1] = 5; }
__global__ void c(int *p) { __threadfence(); h(p); }
