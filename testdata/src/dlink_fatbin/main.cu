extern __device__ int add_bias(int x);
__global__ void biased(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = add_bias(p[i]);
}
int main() {
  int *d = nullptr;
  cudaMalloc(&d, 64 * sizeof(int));
  biased<<<1, 64>>>(d, 64);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
