#include "common.h"
__global__ void kb(int *o) {
  Counter c{5};
  o[threadIdx.x] = shared_inline(-(int)threadIdx.x) * twice((int)threadIdx.x) + c.bump(o[0]);
}
