__device__ int shared_counter = 7;
__device__ int helper(int x) { return x + 1; }
__global__ void k2(int *p) { p[0] = 2; }
