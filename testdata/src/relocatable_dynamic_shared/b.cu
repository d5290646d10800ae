// A second TU: its own namespace-scope array (4-aligned), a variable, and
// another user of the first TU's dynamic array.
extern __shared__ int dyn[];
__shared__ int counts[6];
__device__ int gv2;
__global__ void k_b(int *o) {
  counts[threadIdx.x % 6] = 1;
  dyn[threadIdx.x] = gv2;
  __syncthreads();
  o[0] = counts[2] + dyn[3];
}
