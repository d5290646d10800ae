// Kernels compiled with -lineinfo (not -G) with early returns, linked with -g: on sm_100+
// each gets the debug exit sequence before its EXITs, and a line-table row whose address
// advance no longer fits a special opcode becomes advance_line, a two-byte advance_pc and
// copy, so the line programs grow.
__global__ void k0_5(int *p, int n) {
  int t = threadIdx.x;
  p[t + 0] = t * 1;
  p[t] += 1;

  if (t & 4) { p[t] = 2; return; }
  if (p[t] == 3) return;
  if (p[t] == 4) return;

  if (t & 32) { p[t] = 5; return; }
  p[t + 64] = n;
}

__global__ void k1_5(int *p, int n) {
  int t = threadIdx.x;
  p[t] += 0;

  if (p[t] == 1) return;

  if (p[t] == 2) return;
  if (p[t] == 3) return;
  if (t & 16) { p[t] = 4; return; }

  p[t + 64] = n;
}

__global__ void k2_5(int *p, int n) {
  int t = threadIdx.x;
  if (p[t] == 0) return;
  if (t & 2) { p[t] = 1; return; }

  p[t + 64] = n;
}

__global__ void k3_5(int *p, int n) {
  int t = threadIdx.x;
  if (t > n + 0) return;

  if (p[t] == 1) return;
  p[t + 64] = n;
}

