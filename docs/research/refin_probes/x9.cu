__global__ void k(float *y, const float *x, const int *rp, const int *ci, const float *v, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0;
  for (int j = rp[r]; j < rp[r + 1]; j++) s += v[j] * x[ci[j]];
  y[r] = s;
}
