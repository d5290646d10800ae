__global__ void dmath(double *o, const double *x) {
  double v = x[threadIdx.x];
  o[0 * 32 + threadIdx.x] = sin(v) * cos(v) + tan(v);
  o[1 * 32 + threadIdx.x] = exp(v) / log1p(fabs(v));
  o[2 * 32 + threadIdx.x] = pow(v, 1.0 / 3.0) + cbrt(v) + sqrt(fabs(v));
  o[3 * 32 + threadIdx.x] = fmod(v, 0.7) + hypot(v, 2.0) + v / (v + 3.0);
}
