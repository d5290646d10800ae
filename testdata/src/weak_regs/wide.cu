// Compiled without a register limit: mix<float>/mix<int> get their natural register counts.
#include "work.h"
__global__ void k_wide(const float *p, float *out, int n) { out[threadIdx.x] = mix(p + threadIdx.x, n); }
__global__ void k_wide_i(const int *p, int *out, int n) { out[threadIdx.x] = mix(p + threadIdx.x, n); }
