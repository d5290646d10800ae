// The same thrust::sort<int*> instantiation (weak in both TUs) plus a float one with a comparator.
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/functional.h>
#include <thrust/execution_policy.h>

__device__ int median_of(int *v, int n) {
  int tmp[16];
  for (int i = 0; i < n && i < 16; ++i) tmp[i] = v[i];
  thrust::sort(thrust::seq, tmp, tmp + (n < 16 ? n : 16));
  return tmp[n / 2];
}

__global__ void sort_desc(float *data, float *sums) {
  float row[8];
  for (int i = 0; i < 8; ++i) row[i] = data[threadIdx.x * 8 + i];
  thrust::sort(thrust::seq, row, row + 8, thrust::greater<float>());
  sums[threadIdx.x] = thrust::reduce(thrust::seq, row, row + 8, 0.0f);
  for (int i = 0; i < 8; ++i) data[threadIdx.x * 8 + i] = row[i];
}
