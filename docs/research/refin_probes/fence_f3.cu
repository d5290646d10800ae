__global__ void k(int *p, int n) {
  int v = p[threadIdx.x];
  if (v > n) { asm volatile("red.release.gpu.global.add.s32 [%0], %1;" :: "l"(p+1), "r"(v) : "memory"); }
  else { asm volatile("atom.release.sys.global.add.s32 %0, [%1], %2;" : "=r"(v) : "l"(p+2), "r"(v) : "memory"); }
  p[threadIdx.x + 32] = v;
}
