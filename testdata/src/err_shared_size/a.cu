// s defined here with 16 elements.
__shared__ int s[16];
__device__ void f(int *o);
__global__ void k(int *o) { s[threadIdx.x] = 1; __syncthreads(); o[0] = s[1]; f(o); }
