// Built with -DV=32: passed over (more registers than mid's); calls ghelp.
#include "weak.h"
__global__ void k_wide(const float *p, float *out, int n) { out[threadIdx.x] = mix(p + threadIdx.x, n); }
