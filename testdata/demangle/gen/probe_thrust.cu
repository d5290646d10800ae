// flags: -std=c++17 --extended-lambda
// Kernels that thrust and cub instantiate: long real-world names with deep
// templates, packs, closures and library namespaces.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

struct Square {
  __host__ __device__ float operator()(float x) const { return x * x; }
};

void run(float *d, int *k, int n, void *tmp, size_t bytes) {
  thrust::device_ptr<float> p(d);
  thrust::transform(thrust::device, p, p + n, p, Square());
  thrust::transform(thrust::device, p, p + n, p, [] __device__(float x) { return x + 1.0f; });
  float s = thrust::reduce(thrust::device, p, p + n, 0.0f, thrust::plus<float>());
  thrust::sort(thrust::device, k, k + n);
  auto z = thrust::make_zip_iterator(thrust::make_tuple(p, thrust::counting_iterator<int>(0)));
  thrust::for_each(thrust::device, z, z + n, [] __device__(thrust::tuple<float &, int> t) { thrust::get<0>(t) += thrust::get<1>(t); });
  cub::DeviceReduce::Sum(tmp, bytes, d, d, n);
  cub::DeviceScan::ExclusiveSum(tmp, bytes, k, k, n);
  cub::DeviceRadixSort::SortKeys(tmp, bytes, k, k, n);
  (void)s;
}
