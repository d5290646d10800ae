// Compiled for compute_XX only: nvlink JIT-compiles this PTX with its own
// -device-stack-protector value (a local array, virtual calls, a function
// pointer table).
struct Op {
  __device__ virtual int apply(int x) const { return x + 1; }
  __device__ virtual ~Op() {}
};
struct Twice : Op {
  __device__ int apply(int x) const override { return 2 * x; }
};
__device__ int neg(int x) { return -x; }
__device__ int sq(int x) { return x * x; }
__device__ int (*jit_table[2])(int) = {neg, sq};
__device__ __noinline__ int fill(int *buf, int n) {
  for (int i = 0; i < n; ++i) buf[i] = i * 3;
  return buf[n / 2];
}
__global__ void jit_kernel(int *p, int n) {
  int buf[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Op *op = (i & 1) ? new Twice : new Op;
  if (i < n) p[i] = op->apply(p[i]) + fill(buf, (i & 31) + 1) + jit_table[i & 1](i);
  delete op;
}
