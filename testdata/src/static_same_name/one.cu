static __device__ __noinline__ int helper(int x) { return x + 1; }
static __device__ int state[4] = {1, 1, 1, 1};
namespace { __device__ __noinline__ float anon(float x) { return x * 2.f; } }

__global__ void k_one(int *out, float *f) {
  out[threadIdx.x] = helper(threadIdx.x) + state[threadIdx.x & 3];
  f[threadIdx.x] = anon(f[threadIdx.x]);
}
