__constant__ int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static __device__ __noinline__ int helper(int x) { return table[x & 7] * x; }
static __device__ __noinline__ float scale(float v) { return sqrtf(v) * 2.0f; }
__global__ void kc(int *p, float *q) { p[threadIdx.x] = helper(p[threadIdx.x]); q[threadIdx.x] = scale(q[threadIdx.x]); }
