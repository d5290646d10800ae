// A TU declaring the same array, linked before the -r output.
extern __shared__ float dyn[];
__global__ void k_other(float *o) {
  dyn[threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  o[0] = dyn[3];
}
