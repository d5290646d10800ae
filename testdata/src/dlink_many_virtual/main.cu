#include <cstdio>
#include "h.h"
__device__ float opm(float x) { return -x; }
__device__ unary_fn op_table[4] = {opm, opm, opm, opm};
void launch00(float *); void launch01(float *); void launch02(float *);
void launch03(float *); void launch04(float *); void launch05(float *);
int main() {
  float *o;
  if (cudaMalloc(&o, 128) != cudaSuccess) return 2;
  launch00(o); launch01(o); launch02(o); launch03(o); launch04(o); launch05(o);
  bool ok = cudaDeviceSynchronize() == cudaSuccess;
  printf("many_virtual: %s\n", ok ? "OK" : "FAIL");
  return ok ? 0 : 1;
}
