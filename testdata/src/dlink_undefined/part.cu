__device__ int defined_here(int x) { return x - 1; }
