__device__ int helper(int x) { return x * 3 + 1; }

__device__ int unused_fn(int x) { return x - 1; }

__global__ void kd(int n) {}
