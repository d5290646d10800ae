// A second module of the same kind: its line-table unit and relocations follow the first's.
__global__ void k0_7(int *p, int n) {
  int t = threadIdx.x;
  if (p[t] == 0) return;
  if (t > n + 1) return;

  p[t] += 2;

  p[t] += 3;

  p[t + 64] = n;
}

__global__ void k1_7(int *p, int n) {
  int t = threadIdx.x;
  if (p[t] == 0) return;

  if (t & 2) { p[t] = 1; return; }
  if (p[t] == 2) return;

  if (t & 8) { p[t] = 3; return; }

  p[t] += 4;

  if (p[t] == 5) return;
  p[t + 64] = n;
}

__global__ void k2_7(int *p, int n) {
  int t = threadIdx.x;
  if (t > n + 0) return;
  if (t & 2) { p[t] = 1; return; }

  if (p[t] == 2) return;

  if (p[t] == 3) return;

  if (p[t] == 4) return;
  p[t] += 5;
  p[t + 64] = n;
}

__global__ void k3_7(int *p, int n) {
  int t = threadIdx.x;
  if (t > n + 0) return;
  if (p[t] == 1) return;
  p[t] += 2;
  p[t + 64] = n;
}

