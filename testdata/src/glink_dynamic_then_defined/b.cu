__shared__ int s[16];
__global__ void k2(int *p) { __shared__ char c[3]; c[threadIdx.x]=1; s[threadIdx.x] = p[0]; __syncthreads(); p[1] = s[1]+c[1]; }
