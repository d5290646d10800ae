// A weak template with a switch (ptxas puts its jump table in the
// function's own constant bank, .nv.constant2.<f>). HEAVY copies keep a
// float array in registers (60 registers); light ones need 24.
template <int K> __device__ __noinline__ int pick(int x, int *p) {
  int r = 0;
  switch (x) {
  case 0: r = p[1] * 3 + K; break;
  case 1: r = p[2] ^ 7; break;
  case 2: r = __popc(p[3]) + K; break;
  case 3: r = p[4] / (p[5] | 1); break;
  case 4: r = p[6] << 3; break;
  case 5: r = __clz(p[7]) * K; break;
  default: r = -1;
  }
#ifdef HEAVY
  float a[12];
  for (int i = 0; i < 12; i++) a[i] = p[i + 8] * 1.5f + r;
  for (int i = 0; i < 12; i++) r += (int)(a[i] * a[(i + 5) % 12]);
#endif
  return r;
}
