// Device printf, malloc/free and assert in kernels; a checked helper in check.cu.
#include <cstdio>
#include <cassert>

extern __device__ int checked_sum(const int *p, int n);

__global__ void k_alloc(int n, int *out) {
  int *buf = (int *)malloc(n * sizeof(int));
  assert(buf != nullptr);
  for (int i = 0; i < n; ++i) buf[i] = i * (int)threadIdx.x;
  int s = checked_sum(buf, n);
  printf("thread %d sum %d\n", (int)threadIdx.x, s);
  free(buf);
  out[threadIdx.x] = s;
}

__global__ void k_assert(const float *x) {
  assert(x[threadIdx.x] >= 0.0f);
  if (x[threadIdx.x] > 100.0f) printf("big %f at %d\n", x[threadIdx.x], (int)threadIdx.x);
}
