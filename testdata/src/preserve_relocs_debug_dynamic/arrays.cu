extern __shared__ float d1[];
extern __shared__ int d2[];
__global__ void k1(float *o) { __shared__ float a[64]; a[threadIdx.x]=1; d1[threadIdx.x] = 2; __syncthreads(); o[0] = d1[1] + a[3]; }
__global__ void k2(int *o) { __shared__ int b[4]; b[threadIdx.x]=1; d2[threadIdx.x] = 2; __syncthreads(); o[0] = d2[1] + b[3]; }
__global__ void k3(float *o) { __shared__ char c[40]; c[threadIdx.x]=1; d1[threadIdx.x] = 2; __syncthreads(); o[0] = d1[1] + c[3]; }
__global__ void k4(int *o) { __shared__ int e[8]; e[threadIdx.x]=1; __syncthreads(); o[0] = e[3]; }
