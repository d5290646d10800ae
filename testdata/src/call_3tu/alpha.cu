__device__ int alpha(int x) { return x * x - 3; }
