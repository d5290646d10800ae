// s declared with 32 elements: a different size.
extern __shared__ int s[32];
__device__ void f(int *o) { s[threadIdx.x] = 2; o[1] = s[3]; }
