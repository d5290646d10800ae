// Double-precision division, square root and pow in two TUs: each cubin carries its own
// local copy of the math library's helpers (__cuda_sm20_div_rn_f64_full, ...), under
// the same names.
extern __device__ double other_stage(double x, const double *t, int n);

__global__ void k_first(double *out, const double *in, const float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = in[i];
  double y = pow(x, 1.0 / 3.0) + sqrt(x + 2.0) / (x + 1.5) + log1p(fabs(x));
  out[i] = y / (double)f[i] + other_stage(y, in, n);
}
