// A sum of absolute values of ints through Thrust on the device: in CUB's
// single-tile reduce kernel a global load finds 2-5 pending, and two of those
// indices are first needed at the same instruction.
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/transform_reduce.h>

struct Abs {
  __host__ __device__ int operator()(int x) const { return x < 0 ? -x : x; }
};

int sum_of_magnitudes(int *x, long n) {
  thrust::device_ptr<int> p(x);
  return thrust::transform_reduce(thrust::device, p, p + n, Abs{}, 0, thrust::plus<int>());
}
