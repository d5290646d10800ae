#include "tmpl.h"
template <typename T> __device__ T accumulate(const T *p, int n) {
  T s = T(0);
  for (int i = 0; i < n; ++i) s += p[i];
  return s;
}
template <typename T, int N> __device__ T sum_fixed(Fixed<T, N> f) {
  T s = T(0);
  for (int i = 0; i < N; ++i) s += f.v[i];
  return s;
}
template __device__ int accumulate<int>(const int *, int);
template __device__ float accumulate<float>(const float *, int);
template __device__ double accumulate<double>(const double *, int);
template __device__ int sum_fixed<int, 4>(Fixed<int, 4>);

template <typename T> __global__ void scale_kernel(T *p, T s) { p[threadIdx.x] *= s; }
template __global__ void scale_kernel<float>(float *, float);
template __global__ void scale_kernel<int>(int *, int);
