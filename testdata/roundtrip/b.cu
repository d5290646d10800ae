__device__ int g_other = 7;
typedef int (*fn_t)(int);
__device__ int add1(int x) { return x + 1; }
__device__ fn_t g_fn = add1;
__device__ __noinline__ int helper(int x) { return g_fn(x) + g_other; }
