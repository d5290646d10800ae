extern __device__ int shared_counter;
__device__ int helper(int x);
__global__ void k1(int *p) { p[0] = helper(shared_counter); }
