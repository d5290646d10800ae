#include <cstdio>

extern __device__ float norm2(const float *a);

__global__ void norms(const float *v, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = norm2(v + 3 * i);
}

int main() {
  const int n = 256;
  float v[3 * n], out[n];
  for (int i = 0; i < 3 * n; i++) v[i] = float(i % 7);
  float *dv = nullptr, *dout = nullptr;
  if (cudaMalloc(&dv, sizeof v) != cudaSuccess || cudaMalloc(&dout, sizeof out) != cudaSuccess) return 2;
  cudaMemcpy(dv, v, sizeof v, cudaMemcpyHostToDevice);
  norms<<<(n + 63) / 64, 64>>>(dv, dout, n);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    float *a = v + 3 * i;
    bad += out[i] != a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
  }
  printf("devlib: %d wrong: %s\n", bad, bad == 0 ? "OK" : "FAIL");
  return bad == 0 ? 0 : 1;
}
