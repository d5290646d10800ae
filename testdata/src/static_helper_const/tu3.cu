// One of five TUs alike: a static __constant__ array and a static helper
// reading it, of the same names in every TU.
static __constant__ int c0000[8];
static __device__ __noinline__ int helper1(int x) { return c0000[x & 7] * 5 + x; }
extern "C" __global__ void kern_3(int *out) { out[threadIdx.x] = helper1(threadIdx.x); }
