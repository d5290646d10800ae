#include <cstdio>
extern __device__ void log_value(const char *what, int v);

__global__ void hello(int n) {
  printf("hello from thread %d of %d (n=%d)\n", threadIdx.x, blockDim.x, n);
  log_value("n", n);
}
