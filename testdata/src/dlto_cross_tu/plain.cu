// Built without -dlto (file-options): a non-LTO input in an LTO link.
__device__ float scale(float x);
__global__ void plain_kernel(float *p) { p[threadIdx.x] = scale(p[threadIdx.x]) + 1.0f; }
