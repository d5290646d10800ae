__global__ void __launch_bounds__(128) k(double *out, const double *in, int n) {
  __shared__ double s[128];
  unsigned t = threadIdx.x;
  double v = 0;
  for (int i = t; i < n; i += 128) v += in[i];
  s[t] = v; __syncthreads();
  for (unsigned d = 64; d > 0; d >>= 1) { if (t < d) s[t] += s[t + d]; __syncthreads(); }
  if (t == 0) *out = s[0];
}
