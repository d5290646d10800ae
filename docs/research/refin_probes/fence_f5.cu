__global__ void k(int *p, int n) {
  int v = p[threadIdx.x];
  asm volatile("atom.release.cta.global.add.s32 %0, [%1], %2;" : "=r"(v) : "l"(p+2), "r"(v) : "memory");
  if (v > n) { __threadfence(); p[5] = v; }
  p[threadIdx.x + 32] = v;
}
