typedef float (*unary_fn)(float);
extern __device__ float op_neg(float);
extern __device__ float op_sq(float);
extern __device__ float op_half(float);
__device__ unary_fn op_table[3] = {op_neg, op_sq, op_half};
