__device__ __noinline__ int clampi(int x, int lo, int hi) { return x < lo ? lo : (x > hi ? hi : x); }

__global__ void k_util(int *p) { p[threadIdx.x] = clampi(p[threadIdx.x], -1, 1); }

// sm_100+: a release fence nvlink re-finalizes without its padding; the
// kernel shrinks and its line-table rows move up (advance_pc operands
// rewritten in place).
__global__ void k_release(int *p, int n) {
  int v = p[threadIdx.x];
  if (v > n) { asm volatile("red.release.gpu.global.add.s32 [%0], %1;" :: "l"(p + 1), "r"(v) : "memory"); }
  else { asm volatile("atom.release.sys.global.add.s32 %0, [%1], %2;" : "=r"(v) : "l"(p + 2), "r"(v) : "memory"); }
  p[threadIdx.x + 32] = v;
}
