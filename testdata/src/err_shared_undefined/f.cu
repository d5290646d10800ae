// Undefined references are reported in the order the symbols were first
// seen: s (c.cu), then this input's function g, then its variable t.
extern __shared__ int t[8];
extern __device__ int g(int);
extern __shared__ int s[16];
__global__ void k5(int *p) { s[threadIdx.x] = p[0]; t[threadIdx.x] = g(p[2]); __syncthreads(); p[1] = s[2] + t[1]; }
