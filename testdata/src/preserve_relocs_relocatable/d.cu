// What the first stage left undefined.
__device__ int missing_var = 11;
__device__ int missing_fn(int x) { return x - missing_var; }
