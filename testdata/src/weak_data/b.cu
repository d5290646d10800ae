#include "h.h"
__device__ int fb(int x) { return x + 2; }
__device__ int (*ptrs_b[2])(int) = {fb, fb};
__global__ void kb(int *o) {
  B b; B *p = &b;
  o[0] = counter_v<1>++ + table_v<1>[threadIdx.x & 3] + p->f() + ptrs_b[threadIdx.x & 1](4);
}
