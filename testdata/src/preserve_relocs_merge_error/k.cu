extern __device__ int dup(int);
__global__ void k(int *o) { o[threadIdx.x] = dup(threadIdx.x); }
