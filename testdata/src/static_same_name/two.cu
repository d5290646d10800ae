static __device__ __noinline__ int helper(int x) { return x * 100; }
static __device__ int state[4] = {2, 2, 2, 2};
namespace { __device__ __noinline__ float anon(float x) { return x - 2.f; } }

__global__ void k_two(int *out, float *f) {
  out[threadIdx.x] = helper(threadIdx.x) - state[threadIdx.x & 3];
  f[threadIdx.x] = anon(f[threadIdx.x]);
}
