// Compiled with -maxrregcount=32 (file-options in case.txt): the copy of mix<float> that wins.
#include "work.h"
__global__ void k_narrow(const float *p, float *out, int n) { out[threadIdx.x] = mix(p + threadIdx.x, n); }
