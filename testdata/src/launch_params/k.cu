// __grid_constant__ kernel parameters (address taken and passed to a device function in
// weigh.cu), __maxnreg__, and __launch_bounds__ with a min-blocks value.
#include "params.h"

__global__ void k_gc(const __grid_constant__ Big b, float *out) {
  out[threadIdx.x] = weigh(b, threadIdx.x);
}

__global__ void __maxnreg__(40) k_maxnreg(const __grid_constant__ Big b, float *out) {
  const Big *pb = &b;
  float acc = 0.0f;
  for (int i = 0; i < pb->n; ++i) acc += pb->coef[i % 24] * pb->src[i];
  out[threadIdx.x] = acc + weigh(b, (int)threadIdx.x & 15);
}

__global__ void __launch_bounds__(256, 3) k_lb(Big b, float *out) {
  out[threadIdx.x] = b.coef[threadIdx.x % 24] * (float)b.n;
}

__global__ void __maxnreg__(64) k_plain_maxnreg(float *out, int n) { out[threadIdx.x] = (float)n; }
