#include "h.h"
__device__ float op1(float x) { return x * 1; }
__global__ void k1(float *o, int n) {
  Base *b = (n & 1) ? new D1 : new Base;
  o[0] = call_fp(op_table[n & 3], o[1]) + call_v(b, o[2]) + tcall<unary_fn>(op1, o[3]);
  delete b;
}
__device__ unary_fn op_table[4] = {op1, op1, op1, op1};
