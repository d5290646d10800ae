// A third TU with its own kernel, a local helper and the template again.
template <typename T> __device__ T twice(T x) { return x + x; }
static __device__ __noinline__ int helper(int x) { return twice(x) ^ 5; }
__device__ double dvar = 2.5;
__global__ void k_third(double *out, int n) { out[0] = helper(n) * dvar; }
