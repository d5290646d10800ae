#include "common.h"
__global__ void ka(int *o, float *f) {
  Counter c{2};
  o[threadIdx.x] = shared_inline(threadIdx.x) + twice(3) + c.bump(1);
  f[threadIdx.x] = twice(f[threadIdx.x]);
}
