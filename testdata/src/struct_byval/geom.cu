#include "vec.h"
__device__ Vec3 add3(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
__device__ float dot3(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__device__ Ray advance(Ray r, float s) {
  r.o = add3(r.o, {r.d.x * s, r.d.y * s, r.d.z * s});
  r.t += s;
  return r;
}
__device__ long long unpack(Packed p) { return p.a + p.b + p.c; }
