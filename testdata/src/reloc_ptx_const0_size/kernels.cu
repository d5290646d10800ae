__device__ int is_global(const void *p);
__device__ int either(const void *p, const void *q);

__global__ void small(const int *p, int *out) { out[0] = is_global(p); }

__global__ void wide(const int *p, int *out, int a, int b, int c, int d) {
  out[a + b + c + d] = is_global(p) + either(p, &a);
}
