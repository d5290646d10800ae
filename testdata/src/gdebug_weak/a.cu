template <typename T> __device__ T sum_to(T n) {
  T s = 0;
  for (T i = 0; i < n; ++i) s += i;
  return s;
}
__global__ void ka(int *p) { p[threadIdx.x] = sum_to(p[0]); }
