#include "params.h"
__global__ void k_lb(Big b, float *out) {
  out[threadIdx.x] = b.coef[threadIdx.x % 24] * (float)b.n;
}
