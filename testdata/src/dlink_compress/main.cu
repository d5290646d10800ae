#include <cstdio>
extern __device__ int lz4_value(int x);
extern __device__ int raw_value(int x);
__global__ void lz4_kernel(int *p);
__global__ void zstd_kernel(int *p) { p[threadIdx.x] = raw_value(lz4_value(threadIdx.x)); }
int main() {
  int host[32];
  int *dev = nullptr;
  if (cudaMalloc(&dev, sizeof host) != cudaSuccess) return 2;
  zstd_kernel<<<1, 32>>>(dev);
  cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 32; i++) bad += host[i] != ((i * 5 + 1) ^ 0x55);
  lz4_kernel<<<1, 32>>>(dev);
  cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 32; i++) bad += host[i] != i * 5 + 1;
  cudaFree(dev);
  printf("compress: %d wrong: %s\n", bad, bad == 0 ? "OK" : "FAIL");
  return bad == 0 ? 0 : 1;
}
