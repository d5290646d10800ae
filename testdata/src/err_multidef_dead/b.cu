// Defines bar(int); nothing in the link calls it.
__device__ int bar(int x) { return x * 3 + 1; }
__global__ void k_b(int *p) { p[0] = p[1] + 1; }
