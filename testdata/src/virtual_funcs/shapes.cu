#include "shape.h"
__device__ float Shape::area() const { return 0.0f; }
__device__ float Circle::area() const { return 3.14159f * r * r; }
__device__ float Square::area() const { return s * s; }
__device__ Shape *make_shape(int kind, float x) {
  if (kind == 0) return new Circle(x);
  return new Square(x);
}
