// -dlto requested, but no input carries LTO IR: nvlink links as usual.
#include <cstdio>
__device__ float scale(float x);
extern __device__ int bias;
template <class T> __device__ T twice(T x) { return x + x; }
__global__ void kernel(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = scale(out[i]) + twice(out[i]) + bias;
}
int main() {
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  kernel<<<1, 64>>>(d, 64);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
