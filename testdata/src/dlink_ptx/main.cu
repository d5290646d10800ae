#include <cstdio>

extern __device__ int triple(int x);
__global__ void jit_kernel(int *p, int n);

__global__ void sm_kernel(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = triple(i);
}

int main() {
  const int n = 128;
  int host[n];
  int *dev = nullptr;
  if (cudaMalloc(&dev, sizeof host) != cudaSuccess) return 2;
  sm_kernel<<<1, n>>>(dev, n);
  jit_kernel<<<1, n>>>(dev, n);
  cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(dev);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += host[i] != 9 * i + 1;
  printf("ptx: %d wrong: %s\n", bad, bad == 0 ? "OK" : "FAIL");
  return bad == 0 ? 0 : 1;
}
