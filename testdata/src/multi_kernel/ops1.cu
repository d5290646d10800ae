extern __device__ float clampf(float x);

__global__ void k_scale(float *a, float s) { a[threadIdx.x] = clampf(a[threadIdx.x] * s); }
__global__ void k_offset(float *a, float o) { a[threadIdx.x] = clampf(a[threadIdx.x] + o); }
__global__ void k_square(float *a) { a[threadIdx.x] = clampf(a[threadIdx.x] * a[threadIdx.x]); }
__global__ void k_zero(int *a, int n) { if (threadIdx.x < n) a[threadIdx.x] = 0; }
