// Built with -maxrregcount=40 -DV=0: a replaced holder.
#include "weak.h"
__global__ void k_mid(const float *p, float *out, int n) { out[threadIdx.x] = mix(p + threadIdx.x, n); }
