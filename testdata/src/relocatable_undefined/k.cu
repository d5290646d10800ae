// Kernels referencing several functions and variables that no input defines.
extern __device__ int missing_fn_b(int);
extern __device__ int missing_fn_a(int);
extern __device__ int missing_var[4];
extern __constant__ float missing_const[2];
__device__ int helper(int x);
__global__ void k1(int *o) { o[threadIdx.x] = missing_fn_b(threadIdx.x) + missing_var[1] + helper(1); }
__global__ void k2(int *o) { o[threadIdx.x] = missing_fn_a(2) + (int)missing_const[1]; }
