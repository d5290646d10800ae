#include "h2.h"
__device__ float wop3(float x) { return x * 3; }
__global__ void wk3(float *o, int n) { o[0] = heavy<40>(o + 1, n ? op_table[n & 3] : wop3); }
