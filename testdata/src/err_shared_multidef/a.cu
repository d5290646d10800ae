// s first seen as an unsized extern (dynamic shared memory).
extern __shared__ int s[];
__device__ void f(int *o);
__device__ void g(int *o);
__global__ void k(int *o) { s[threadIdx.x] = 1; __syncthreads(); o[0] = s[1]; f(o); g(o); }
