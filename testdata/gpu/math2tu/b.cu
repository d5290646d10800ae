// The second TU of the FP64 GPU check: its own division and square root.
__device__ __noinline__ double other_stage(double x, const double *t, int n) {
  double s = 0.0;
  for (int k = 0; k < n; ++k) s += sqrt(t[k] * x + 3.0) / (t[(k + 1) % n] + 0.25);
  return s / (x + 7.0);
}
