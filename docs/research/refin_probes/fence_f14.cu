#include <cuda/atomic>
__global__ void k(int *p, int *flag) {
  p[threadIdx.x] = threadIdx.x;
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (threadIdx.x == 0) f.store(1, cuda::memory_order_release);
}
