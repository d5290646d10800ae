#include <cstdio>
#include <cassert>

__device__ int checked_sum(const int *p, int n) {
  assert(n > 0 && "n must be positive");
  int s = 0;
  for (int i = 0; i < n; ++i) s += p[i];
  if (s < 0) printf("overflow in checked_sum: %d\n", s);
  return s;
}

__global__ void k_scratch(int n) {
  char *a = (char *)malloc(n);
  char *b = (char *)malloc(2 * n);
  assert(a && b);
  a[0] = 1; b[0] = a[0];
  printf("%p %p\n", a, b);
  free(b);
  free(a);
}
