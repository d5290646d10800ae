// Indirect calls across TUs: device-side virtual calls and a function-pointer table.
#include <cstdio>
#include "shapes.h"
__global__ void k_areas(float *out) {
  int t = threadIdx.x;
  Shape *s = make_shape(t & 1, (float)(t + 1));
  float a = s->area();
  delete s;
  out[t] = op_table[t % 3](a);
}
int main() {
  float *d; cudaMalloc(&d, 32 * sizeof(float));
  k_areas<<<1, 32>>>(d);
  float h[32];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  bool ok = cudaDeviceSynchronize() == cudaSuccess;
  for (int t = 0; t < 32; ++t) {
    float v = (float)(t + 1);
    float a = (t & 1) ? v * v : 3.0f * v * v;
    float e = t % 3 == 0 ? 2 * a : t % 3 == 1 ? a * a : -a;
    ok &= h[t] == e;
  }
  printf("indirect: %s h[0]=%.1f h[1]=%.1f h[2]=%.1f h[31]=%.1f\n", ok ? "PASS" : "FAIL", h[0], h[1], h[2], h[31]);
  return ok ? 0 : 1;
}
