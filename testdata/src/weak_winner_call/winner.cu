// Built with -maxrregcount=32 -DV=8: the kept copy, which calls ghelp.
#include "small.h"
__global__ void k_winner(const float *p, float *out, int n) { out[threadIdx.x] = mix(p + threadIdx.x, n); }
