__global__ void k(int *p, int n) {
  int t = threadIdx.x;
  if (t < n) { p[t] = t * 3; asm volatile("red.release.gpu.global.add.s32 [%0], %1;" :: "l"(p+1000), "r"(t) : "memory"); }
  else { p[t] = 7; }
  p[t + 64] = n;
}
