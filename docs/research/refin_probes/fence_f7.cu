__global__ void k(int *p, int n) {
  int v = p[threadIdx.x];
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
  if (v) { asm volatile("fence.sc.sys;" ::: "memory"); }
  while (atomicCAS(p + 3, 0, 1) != 0) { __nanosleep(10); }
  __threadfence(); p[4] = v; atomicExch(p + 3, 0);
}
