__device__ int f3(int x) { return x * 11 + 1; }
