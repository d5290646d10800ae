__device__ int present_fn(int x) { return x - 1; }
