extern __shared__ float dyn[];
#if 0 >= 1
__shared__ int N[8];
__global__ void k2(int *o) { N[threadIdx.x] = 1; __syncthreads(); o[0] = N[2]; }
#endif
#if 0 >= 2
__global__ void k3(int *o) { N[threadIdx.x] = 3; __syncthreads(); o[0] = N[1]; }
#endif
__global__ void k1(float *o) { __shared__ float loc[32]; loc[threadIdx.x] = 1; dyn[threadIdx.x] = 2; __syncthreads(); o[0] = dyn[1] + loc[3]; }
