#include "h2.h"
__device__ float wop2(float x) { return x * 2; }
__global__ void wk2(float *o, int n) { o[0] = heavy<40>(o + 1, n ? op_table[n & 3] : wop2); }
