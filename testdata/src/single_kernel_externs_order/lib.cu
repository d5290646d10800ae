#include <cstdio>
__device__ __noinline__ void fv(int x) { printf("x%d\n", x); }
