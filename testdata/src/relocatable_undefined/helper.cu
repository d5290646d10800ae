// helper is defined here but itself references missing_fn_a (also missing in k.cu),
// missing_fn_c and missing_var2.
extern __device__ int missing_fn_a(int);
extern __device__ int missing_fn_c(int);
extern __device__ int missing_var2;
__device__ int helper(int x) { return missing_fn_a(x) + missing_fn_c(x) + missing_var2; }
