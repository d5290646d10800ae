// table only declared here.
extern __device__ int table[];
__device__ void f(int *o);
__device__ void g(int *o);
__global__ void k(int *o) { o[0] = table[threadIdx.x]; f(o); g(o); }
