// Three TUs with static device functions of one name (helper, scale), each
// its own code and records; a -r of a.cu, b.cu and c.cu keeps three copies.
static __device__ __noinline__ int helper(int x) { return x * 3 + 1; }
static __device__ __noinline__ float scale(float v) { return v * 0.5f; }
__global__ void ka(int *p, float *q) { p[threadIdx.x] = helper(p[threadIdx.x]); q[0] = scale(q[1]); }
