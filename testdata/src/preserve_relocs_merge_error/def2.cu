__device__ int dup(int x) { return x + 2; }
