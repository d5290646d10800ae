// weak mix<float> (a template: one weak copy per TU). V selects what the copy
// contains: 1 sqrtf (a call to the local slow-path helper
// __cuda_sm20_sqrt_rn_f32_slowpath), 2 an early loop exit, 4 a division,
// 8 a switch, 16 a __device__ variable, 32 a call to the global ghelp.
#ifndef V
#define V 0
#endif
#ifndef T0
#define T0 float
#endif
#if V & 16
__device__ float gvar[4];
#endif
#if V & 32
__device__ __noinline__ float ghelp(float x);
#endif
#if V & 64
static __device__ __noinline__ float shelp(float x) { return x * x + 1.0f; }
#endif
template <typename T>
__device__ __noinline__ T mix(const T *p, int n) {
  T a0 = p[0], a1 = p[1], a2 = p[2], a3 = p[3], a4 = p[4], a5 = p[5], a6 = p[6], a7 = p[7];
  T b0 = p[8], b1 = p[9], b2 = p[10], b3 = p[11], b4 = p[12], b5 = p[13], b6 = p[14], b7 = p[15];
  T c0 = p[16], c1 = p[17], c2 = p[18], c3 = p[19], c4 = p[20], c5 = p[21], c6 = p[22], c7 = p[23];
  for (int i = 0; i < n; ++i) {
    a0 = a0 * b1 + c2; a1 = a1 * b2 + c3; a2 = a2 * b3 + c4; a3 = a3 * b4 + c5;
    a4 = a4 * b5 + c6; a5 = a5 * b6 + c7; a6 = a6 * b7 + c0; a7 = a7 * b0 + c1;
    b0 = b0 * c1 + a2; b1 = b1 * c2 + a3; b2 = b2 * c3 + a4; b3 = b3 * c4 + a5;
    b4 = b4 * c5 + a6; b5 = b5 * c6 + a7; b6 = b6 * c7 + a0; b7 = b7 * c0 + a1;
    c0 = c0 * a1 + b2; c1 = c1 * a2 + b3; c2 = c2 * a3 + b4; c3 = c3 * a4 + b5;
    c4 = c4 * a5 + b6; c5 = c5 * a6 + b7; c6 = c6 * a7 + b0; c7 = c7 * a0 + b1;
#if V & 1
    if (a0 > b0) { a1 = sqrtf(a1); b3 = __sinf(b3) ; }
#endif
#if V & 2
    if (((int)c3 & 7) == 3) break;
#endif
  }
#if V & 4
  for (int j = 0; j < n; j += 3) { a0 = a0 / (p[j] + 1.0f); b1 = fmaxf(b1, p[j+1]); c2 = (float)((int)c2 ^ j); }
#endif
#if V & 8
  switch (n & 3) { case 0: a0 += 1; break; case 1: a1 *= 2; break; case 2: a2 -= c5; break; default: a3 = -a3; }
#endif
#if V & 16
  a0 += gvar[n & 3];
#endif
#if V & 32
  a1 = ghelp(a1);
#endif
#if V & 64
  a2 = shelp(a2);
#endif
  return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + b0 + b1 + b2 + b3 + b4 + b5 + b6 + b7 +
         c0 + c1 + c2 + c3 + c4 + c5 + c6 + c7;
}
