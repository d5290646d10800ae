// Device-wide reductions of ints, longs and floats through cub::DeviceReduce:
// the single-tile and multi-tile kernels it instantiates load several items
// per thread into a full set of scoreboards.
#include <cub/device/device_reduce.cuh>

cudaError_t sum_ints(void *tmp, size_t &bytes, const int *in, int *out, int n, cudaStream_t s) {
  return cub::DeviceReduce::Sum(tmp, bytes, in, out, n, s);
}

cudaError_t max_floats(void *tmp, size_t &bytes, const float *in, float *out, int n, cudaStream_t s) {
  return cub::DeviceReduce::Max(tmp, bytes, in, out, n, s);
}

cudaError_t sum_longs(void *tmp, size_t &bytes, const long long *in, long long *out, int n, cudaStream_t s) {
  return cub::DeviceReduce::Sum(tmp, bytes, in, out, n, s);
}
