__device__ float clampf(float x) { return fminf(fmaxf(x, -1.f), 1.f); }

__global__ void k_neg(float *a) { a[threadIdx.x] = -clampf(a[threadIdx.x]); }
__global__ void k_copy(float *d, const float *s) { d[threadIdx.x] = s[threadIdx.x]; }
__global__ void k_iota(int *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x * blockDim.x + threadIdx.x; }
