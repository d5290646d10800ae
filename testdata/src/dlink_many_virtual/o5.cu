#include "h.h"
static __device__ int s_count;
__constant__ float c_k05 = 5.5f;
__device__ float op05(float x) { return x * c_k05; }
__global__ void k05(float *o, int n) {
  Base *b = (n & 1) ? new D1 : new Base;
  o[0] = call_fp(n ? op_table[n & 3] : op05, o[1]) + b->f(o[2]) + twice(o[3]) + atomicAdd(&s_count, 1);
  delete b;
}
void launch05(float *o) { k05<<<1, 32>>>(o, 1); }
