// Host program: launches both kernels and checks the result (exit status 0 = OK).
#include <cstdio>

__global__ void scale_kernel(float *data, int n);
__global__ void offset_kernel(float *data, int n, float off);
extern __device__ int g_calls;

int main() {
  const int n = 1000;
  float host[n];
  for (int i = 0; i < n; i++) host[i] = float(i);
  float *dev = nullptr;
  if (cudaMalloc(&dev, n * sizeof(float)) != cudaSuccess) return 2;
  cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice);
  scale_kernel<<<(n + 127) / 128, 128>>>(dev, n);
  offset_kernel<<<(n + 127) / 128, 128>>>(dev, n, 1.0f);
  cudaMemcpy(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost);
  int calls = 0;
  cudaMemcpyFromSymbol(&calls, g_calls, sizeof(int));
  cudaFree(dev);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += host[i] != 2.0f * i + 1.0f;
  printf("multi: %d wrong, %d calls: %s\n", bad, calls, bad == 0 && calls == n ? "OK" : "FAIL");
  return bad == 0 && calls == n ? 0 : 1;
}
