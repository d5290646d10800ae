__device__ float op_neg(float x) { return -x; }
__device__ float op_sq(float x) { return x * x; }
__device__ float op_half(float x) { return x * 0.5f; }
