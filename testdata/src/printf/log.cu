#include <cstdio>
__device__ void log_value(const char *what, int v) {
  printf("[block %d] %s = %d, %f\n", blockIdx.x, what, v, v * 0.5);
}

__global__ void status(const float *x) {
  if (threadIdx.x == 0) printf("status: %.3f %.3f\n", x[0], x[1]);
}
