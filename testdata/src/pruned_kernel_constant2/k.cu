// Two kernels; only 'used' is launched from host code, so nvlink prunes 'unused'.
// Both need an OCG constant (the double 1e-6), which ptxas puts in .nv.constant2.<kernel>.
__global__ void used(float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = 1.f / (i - 100 + 1e-6);
}
__global__ void unused(float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = 2.f / (i - 7 + 1e-6);
}
int main() {
  float *p;
  cudaMalloc(&p, 64 * sizeof(float));
  used<<<1, 64>>>(p, 64);
  return cudaDeviceSynchronize() != cudaSuccess;
}
