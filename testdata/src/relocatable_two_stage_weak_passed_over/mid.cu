// Built with -maxrregcount=40 -DV=0: the first copy; defines ghelp.
#include "weak.h"
__global__ void k_mid(const float *p, float *out, int n) { out[threadIdx.x] = mix(p + threadIdx.x, n); }
__device__ __noinline__ float ghelp(float x) { return x * x + 2.0f; }
