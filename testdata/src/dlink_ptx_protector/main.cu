#include <cstdio>

__global__ void jit_kernel(int *p, int n);

__global__ void sm_kernel(int *p, int n) {
  int buf[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 32; ++k) buf[k] = k + i;
  if (i < n) p[i] = buf[i & 31] - i;
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
  for (int i = 0; i < n; i++) {
    int v = i & 31;
    int e = ((i & 1) ? 2 * v : v + 1) + 3 * (((i & 31) + 1) / 2) + ((i & 1) ? i * i : -i);
    bad += host[i] != e;
  }
  printf("ptx protector: %d wrong: %s\n", bad, bad == 0 ? "OK" : "FAIL");
  return bad == 0 ? 0 : 1;
}
