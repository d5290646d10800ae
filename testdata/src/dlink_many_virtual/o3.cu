#include "h.h"
static __device__ int s_count;
__constant__ float c_k03 = 3.5f;
__device__ float op03(float x) { return x * c_k03; }
__global__ void k03(float *o, int n) {
  Base *b = (n & 1) ? new D1 : new Base;
  o[0] = call_fp(n ? op_table[n & 3] : op03, o[1]) + b->f(o[2]) + twice(o[3]) + atomicAdd(&s_count, 1);
  delete b;
}
void launch03(float *o) { k03<<<1, 32>>>(o, 1); }
