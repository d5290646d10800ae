// -G over two TUs: a kernel calling a device function of the other TU.
extern __device__ int helper(int x);

__global__ void kc(int *p) { p[threadIdx.x] = helper(threadIdx.x); }
