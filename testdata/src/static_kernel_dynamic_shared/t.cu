__global__ void k_global_dyn(float *o) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  o[0] = dyn[1];
}
