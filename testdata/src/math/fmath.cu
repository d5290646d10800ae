__global__ void fmath(float *o, const float *x) {
  float v = x[threadIdx.x];
  o[0 * 32 + threadIdx.x] = sinf(v) + cosf(v);
  o[1 * 32 + threadIdx.x] = expf(v) * logf(fabsf(v) + 1.f);
  o[2 * 32 + threadIdx.x] = powf(v, 2.5f) + sqrtf(fabsf(v));
  o[3 * 32 + threadIdx.x] = tanhf(v) + atan2f(v, 1.f + v);
  o[4 * 32 + threadIdx.x] = __sinf(v) + __expf(v) + rsqrtf(v + 2.f);
  o[5 * 32 + threadIdx.x] = erff(v) + lgammaf(v + 3.f);
}
