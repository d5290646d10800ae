#include "h2.h"
__device__ float wop1(float x) { return x * 1; }
__global__ void wk1(float *o, int n) { o[0] = heavy<40>(o + 1, n ? op_table[n & 3] : wop1); }
__device__ unary_fn op_table[4] = {wop1, wop1, wop1, wop1};
