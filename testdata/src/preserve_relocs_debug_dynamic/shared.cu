extern __shared__ float dyn[];
__device__ float sum_dyn(int n) {
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += dyn[i];
  return s;
}
__global__ void kdyn(float *out) {
  dyn[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = sum_dyn(blockDim.x);
}
