// The second stage's own TU: another static helper of the same name, and a
// call into b.cu's visible function.
extern __device__ int shared_entry(int x);
static __device__ __noinline__ int helper(int x) { return x ^ 0x55; }
__global__ void kd(int *p) { p[threadIdx.x] = helper(p[threadIdx.x]) + shared_entry(p[1]); }
