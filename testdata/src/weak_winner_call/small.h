// weak mix<float>, small. V: 1 sqrtf, 2 division, 4 a static helper,
// 8 a call to the global ghelp, 16/32 a __device__ variable.
#ifndef V
#define V 1
#endif
#if V & 4
static __device__ __noinline__ float shelp(float x) { return x * x + 1.0f; }
#endif
#if V & 8
__device__ __noinline__ float ghelp(float x);
#endif
#if V & 48
__device__ float gvar[4];
#endif
template <typename T>
__device__ __noinline__ T mix(const T *p, int n) {
  T a = p[0], b = p[1];
  for (int i = 0; i < n; ++i) {
    a = a * b + p[i];
#if V & 1
    if (a > b) a = sqrtf(a);
#endif
#if V & 2
    b = b / (a + 1.0f);
#endif
#if V & 4
    b = shelp(b);
#endif
#if V & 8
    b = ghelp(b);
#endif
  }
#if V & 16
  a += gvar[n & 3];
#endif
#if V & 32
  a += gvar[2] * gvar[3];
#endif
  return a + b;
}
