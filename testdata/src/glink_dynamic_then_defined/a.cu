extern __shared__ int s[];
__global__ void k(int *p) { __shared__ int loc[20]; loc[threadIdx.x]=1; s[threadIdx.x] = p[0]; __syncthreads(); p[1] = s[0]+loc[2]; }
