extern __shared__ int A[32];
__shared__ int B[32];
__device__ int fb(int i) { B[threadIdx.x] = i; A[threadIdx.x] = i; __syncthreads(); return B[3] + A[4]; }
