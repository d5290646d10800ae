// (p1: 0 extra variables, so that its PTX line numbers differ from the others')
// Compiled for compute_XX only: nvlink JIT-compiles this PTX (one of four);
// the double arithmetic draws ptxas's -warn-double-usage warning.
__device__ int g_p1;
__device__ __noinline__ int step1(int x) {
  atomicAdd(&g_p1, 1);
  return (int)((double)x * 2.0 + 1.0);
}
__global__ void k1(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = step1(p[i]);
}
