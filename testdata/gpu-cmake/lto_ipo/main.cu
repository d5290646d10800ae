#include <cmath>
#include <cstdio>
#include <vector>
__global__ void reduce_kernel(const float *in, float *out, int n);
int main() {
  const int n = 1 << 16;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = float(i % 1000) * 0.01f;
  float *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, sizeof(float));
  cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d_out, 0, sizeof(float));
  reduce_kernel<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
  float got = 0;
  cudaError_t err = cudaMemcpy(&got, d_out, sizeof(float), cudaMemcpyDeviceToHost);
  double want = 0;
  for (int i = 0; i < n; ++i) {
    float x = h[i];
    float t = std::sin(x) * 0.5f + 0.5f;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    want += t * float((int(x) & 7) + 1);
  }
  bool ok = err == cudaSuccess && std::fabs(got - want) <= 1e-3 * std::fabs(want);
  std::printf("lto_ipo: sum %.3e (host %.3e) %s\n", got, want, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
