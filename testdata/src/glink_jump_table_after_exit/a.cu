// A switch compiled to a jump table (BRX) after an early return: with -g on
// sm_100+ the debug exit sequence before the first EXIT moves the BRX and
// its targets, so the table words in the kernel's bank, the BRX's offset and
// EIATTR_INDIRECT_BRANCH_TARGETS move with them (HeCBench bn, lsqt,
// resnet-kernels, depixel, jenkins-hash).
__global__ void dispatch(const int *op, float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  switch (op[i]) {
  case 0: v = v * 2.0f; break;
  case 1: v = v + 3.0f; break;
  case 2: v = v - 1.5f; break;
  case 3: v = v * v; break;
  case 4: v = -v; break;
  case 5: v = v * 0.25f + 1.0f; break;
  case 6: v = v / 3.0f; break;
  default: v = 0.0f; break;
  }
  x[i] = v;
}

// A switch on a uniform value in a loop after the early return (ptxas
// unrolls it into branches, which move with the code).
__global__ void dispatch_uniform(int mode, float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  for (int k = 0; k < 4; k++) {
    switch ((mode + k) & 7) {
    case 0: v = v * 2.0f; break;
    case 1: v = v + 3.0f; break;
    case 2: v = v - 1.5f; break;
    case 3: v = v * v; break;
    case 4: v = -v; break;
    case 5: v = v * 0.25f + 1.0f; break;
    case 6: v = v / 3.0f; break;
    default: v = 0.0f; break;
    }
  }
  x[i] = v;
}
