#include <cstdio>
#include <cassert>
extern __device__ int h(int);
__device__ int f(int x) { printf("f %d\n", x); return h(x); }
__device__ int g(int x) { assert(x); return x; }
