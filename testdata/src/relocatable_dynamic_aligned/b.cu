extern __shared__ int dyn[];
__global__ void k_dyn(int *o) {
  dyn[threadIdx.x] = 1;
  __syncthreads();
  o[0] = dyn[1];
}
__global__ void k_other(int *o) { o[0] = 2; }
