#include "shape.h"
#include <new>
// Objects constructed here reference the vtables defined in shapes.cu.
__global__ void areas(const float *x, float *out, int *sides) {
  int i = threadIdx.x;
  Shape *heap = make_shape(i & 1, x[i]);
  out[i] = heap->area();
  sides[i] = heap->sides();
  delete heap;
}
__global__ void local_objs(const float *x, float *out) {
  int i = threadIdx.x;
  Circle c(x[i]);
  Square q(x[i] + 1.0f);
  Shape *p[2] = {&c, &q};
  Shape *s = p[(i >> 1) & 1];
  out[i] = s->area() + (float)s->sides();
}
