#pragma nv_diag_suppress static_var_with_dynamic_init
// A kernel with mbarrier operations (cuda::barrier in shared memory, which
// ptxas lists in EIATTR_MBARRIER_INSTR_OFFSETS), some of them after an early
// return.
#include <cuda/barrier>
__global__ void sync_after_exit(int *out, int n) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  if (blockIdx.x >= n)
    return;
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
  bar.arrive_and_wait();
  out[blockIdx.x * blockDim.x + threadIdx.x + 32] = 2;
}
