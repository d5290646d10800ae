// Seen first: the dynamic (unsized) declaration.
extern __shared__ int s[];
__global__ void k(int *p) { s[threadIdx.x] = p[0]; __syncthreads(); p[1] = s[0]; }
