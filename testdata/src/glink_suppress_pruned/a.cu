// An uncalled function using a barrier, defined before a reached one using
// %ctaid.z; a kernel -kernels-used leaves out, kept by --preserve-relocs.
__device__ __noinline__ void deadbar(int *o) { __syncthreads(); o[0] = 1; }
__global__ void kdead(int *o) { deadbar(o); }
__device__ __noinline__ void usez(int *o) { o[blockIdx.z] = 2; }
__global__ void k0(int *o) { usez(o); }
