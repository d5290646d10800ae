// FP64 math in this TU and in b.cu (local helper copies with the same names).
#include <cmath>
#include <cstdio>
extern __device__ double other_stage(double x, const double *t, int n);

__global__ void k_first(double *out, const double *in, int n) {
  int i = threadIdx.x;
  double x = in[i];
  out[i] = pow(x, 1.0 / 3.0) + sqrt(x + 2.0) / (x + 1.5) + other_stage(x, in, n) / (x + 0.75);
}

static double other_stage_host(double x, const double *t, int n) {
  double s = 0.0;
  for (int k = 0; k < n; ++k) s += sqrt(t[k] * x + 3.0) / (t[(k + 1) % n] + 0.25);
  return s / (x + 7.0);
}

int main() {
  const int n = 64;
  double h_in[n], h_out[n];
  for (int i = 0; i < n; ++i) h_in[i] = 0.37 * i + 1.0;
  double *d_in, *d_out;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  k_first<<<1, n>>>(d_out, d_in, n);
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  bool ok = cudaDeviceSynchronize() == cudaSuccess;
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    double x = h_in[i];
    double e = pow(x, 1.0 / 3.0) + sqrt(x + 2.0) / (x + 1.5) + other_stage_host(x, h_in, n) / (x + 0.75);
    worst = fmax(worst, fabs(h_out[i] - e) / fabs(e));
  }
  ok &= worst < 1e-12;
  printf("math2tu: %s out[7]=%.12f\n", ok ? "PASS" : "FAIL", h_out[7]);
  return ok ? 0 : 1;
}
