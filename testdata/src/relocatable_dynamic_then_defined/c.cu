// A sized declaration after the dynamic one: s stays dynamic.
extern __shared__ int s[16];
__global__ void k3(int *p) { s[threadIdx.x] = p[0]; __syncthreads(); p[1] = s[2]; }
