extern __device__ int f1(int);
__global__ void chain(int *out) { out[threadIdx.x] = f1(threadIdx.x); }
