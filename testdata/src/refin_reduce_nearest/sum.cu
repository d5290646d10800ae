// A sum of ints through Thrust on the device. Thrust instantiates CUB's
// single-tile and multi-tile reduce kernels for 32-bit and 64-bit offsets;
// the single-tile kernel loads a tile with an unrolled run of global loads
// that fill every scoreboard, and their read scoreboards guard the address
// registers.
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>

int sum_ints(int *x, long n) {
  thrust::device_ptr<int> p(x);
  return thrust::reduce(thrust::device, p, p + n, 0, thrust::plus<int>());
}
