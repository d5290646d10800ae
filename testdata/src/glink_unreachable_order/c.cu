// -G: an uncalled function using a barrier defined before the reached one
// using %ctaid.z; the only kernel takes both records, ordered by the
// reachable functions (-g keeps the uncalled one).
__device__ __noinline__ void deadbar(int *o) { __syncthreads(); o[0] = 1; }
__device__ __noinline__ void usez(int *o) { o[blockIdx.z] = 2; }
__global__ void k0(int *o) { usez(o); }
