// Built with -DV=0: the first copy (replaced); defines ghelp.
#include "small.h"
__global__ void k_first(const float *p, float *out, int n) { out[threadIdx.x] = mix(p + threadIdx.x, n); }
__device__ __noinline__ float ghelp(float x) { return x * x + 2.0f; }
