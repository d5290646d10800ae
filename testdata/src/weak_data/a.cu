#include "h.h"
__device__ int fa(int x) { return x + 1; }
// A strong table of function pointers next to the weak data in .nv.global.init.
__device__ int (*ptrs_a[2])(int) = {fa, fa};
__global__ void ka(int *o) {
  B b; B *p = &b;
  o[0] = counter_v<1>++ + table_v<1>[threadIdx.x & 3] + p->f() + ptrs_a[threadIdx.x & 1](3);
}
