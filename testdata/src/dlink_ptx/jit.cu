// Compiled for compute_XX only: the fatbin holds PTX, which nvlink JIT-compiles.
__device__ int g_jit_count;
__device__ int triple(int x) {
  atomicAdd(&g_jit_count, 1);
  return 3 * x;
}
__global__ void jit_kernel(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = triple(p[i]) + 1;
}
