// Kernels with BREAK and NANOSLEEP, which nvlink re-finalizes at sm_100+.
// Float and double atomics on shared memory are compare-and-swap loops that
// leave through BREAK (0x942); the flag wait sleeps with NANOSLEEP (0x95d).
template <typename T>
__global__ void bump_shared(T *dst, int slot, int n) {
  __shared__ T cells[256];
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned k = id; k < n; k += blockDim.x * gridDim.x)
    atomicAdd(cells + slot, (T)1);
  if (threadIdx.x == 0 && blockIdx.x == gridDim.x)
    dst[0] = cells[0];
}
template __global__ void bump_shared<float>(float *, int, int);
template __global__ void bump_shared<double>(double *, int, int);

__global__ void wait_flag(volatile int *flag, int *out) {
  while (*flag == 0)
    __nanosleep(200);
  out[threadIdx.x] = *flag;
}
