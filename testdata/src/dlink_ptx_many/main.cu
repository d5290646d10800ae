#include <cstdio>

__global__ void k1(int *p, int n);
__global__ void k2(int *p, int n);
__global__ void k3(int *p, int n);
__global__ void k4(int *p, int n);

int main() {
  const int n = 64;
  int host[n] = {};
  int *dev = nullptr;
  if (cudaMalloc(&dev, sizeof host) != cudaSuccess) return 2;
  cudaMemcpy(dev, host, sizeof host, cudaMemcpyHostToDevice);
  k1<<<1, n>>>(dev, n);
  k2<<<1, n>>>(dev, n);
  k3<<<1, n>>>(dev, n);
  k4<<<1, n>>>(dev, n);
  cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(dev);
  // ((((0*2+1)*3+2)*4+3)*5+4) = 119
  int bad = 0;
  for (int i = 0; i < n; i++) bad += host[i] != 119;
  printf("ptx_many: %d wrong: %s\n", bad, bad == 0 ? "OK" : "FAIL");
  return bad == 0 ? 0 : 1;
}
