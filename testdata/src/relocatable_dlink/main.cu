#include <cstdio>

__global__ void parent(int *data, int n);

int main() {
  const int n = 64;
  int host[n];
  for (int i = 0; i < n; i++) host[i] = i;
  int *dev = nullptr;
  if (cudaMalloc(&dev, sizeof host) != cudaSuccess) return 2;
  cudaMemcpy(dev, host, sizeof host, cudaMemcpyHostToDevice);
  parent<<<1, 32>>>(dev, n);
  cudaError_t err = cudaDeviceSynchronize();
  cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(dev);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += host[i] != 2 * (i + 1);
  printf("cdp: %s, %d wrong: %s\n", cudaGetErrorString(err), bad, bad == 0 ? "OK" : "FAIL");
  return bad == 0 ? 0 : 1;
}
