__shared__ int Q[32];
__device__ int fq(int i) { Q[threadIdx.x] = i; __syncthreads(); return Q[3]; }
