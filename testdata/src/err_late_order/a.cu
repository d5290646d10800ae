// 0xfffc bytes of __constant__ data: fits alone.
__constant__ int c1[16383];
__device__ int f(int i);
__global__ void k(int *o) { o[0] = c1[threadIdx.x] + f(threadIdx.x); }
