// Kernels compiled without -G in a -g link whose sm_100+ capsules hold
// 0x51/0xd1 tokens (one item for several instructions: a release fence's
// sequence here, CUB's shuffle steps in block.cu), and a BRX jump table
// whose targets all lie before the EXIT.
__global__ void k_switch(float *o, int m) {
  float x = o[threadIdx.x];
  switch (m) {
  case 0: x = x * 3.f; break;
  case 1: x = sinf(x); break;
  case 2: x = cosf(x); break;
  case 3: x = x + 9.f; break;
  case 4: x = sqrtf(x); break;
  case 5: x = x * x; break;
  case 6: x = expf(x); break;
  case 7: x = logf(x); break;
  }
  o[threadIdx.x] = x;
}

__global__ void k_release(int *p, int n) {
  int t = threadIdx.x;
  if (t < n) {
    p[t] = t * 3;
    asm volatile("red.release.gpu.global.add.s32 [%0], %1;" ::"l"(p + 1000), "r"(t) : "memory");
  } else {
    p[t] = 7;
  }
  p[t + 64] = n;
}
