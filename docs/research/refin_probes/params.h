struct Big {
  float coef[24];
  int n;
  const float *src;
};
__device__ float weigh(const Big &b, int i);
