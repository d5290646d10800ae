// thrust::sort with thrust::seq on a per-thread array inside a kernel.
#include <thrust/sort.h>
#include <thrust/execution_policy.h>

extern __device__ int median_of(int *v, int n);

__global__ void sort_rows(int *data, int *medians) {
  int row[16];
  for (int i = 0; i < 16; ++i) row[i] = data[threadIdx.x * 16 + i];
  thrust::sort(thrust::seq, row, row + 16);
  for (int i = 0; i < 16; ++i) data[threadIdx.x * 16 + i] = row[i];
  medians[threadIdx.x] = median_of(data + threadIdx.x * 16, 16);
}
