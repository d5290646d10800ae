extern __device__ int missing_fn(int);
extern __device__ int present_fn(int);
__global__ void k(int *o) { o[threadIdx.x] = missing_fn(threadIdx.x) + present_fn(1); }
