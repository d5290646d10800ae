static __device__ __noinline__ int helper(int x) {
  __shared__ int s[32];
  s[threadIdx.x & 31] = x;
  __syncthreads();
  return s[(threadIdx.x + 1) & 31] - x;
}
__device__ int shared_entry(int x) { return helper(x) + 2; }
__global__ void kb(int *p) { p[threadIdx.x] = helper(p[threadIdx.x]) + shared_entry(p[0]); }
