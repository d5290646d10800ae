// A sum of squares of floats through Thrust on the device: CUB's single-tile
// reduce kernel loads a tile with an unrolled run of global loads. Where
// ptxas, its indices taken, put a load on a busy index, the re-allocation may
// have one free.
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/transform_reduce.h>

struct Square {
  __host__ __device__ float operator()(float x) const { return x * x; }
};

float sum_of_squares(float *x, long n) {
  thrust::device_ptr<float> p(x);
  return thrust::transform_reduce(thrust::device, p, p + n, Square{}, 0.0f, thrust::plus<float>());
}
