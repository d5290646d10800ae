// Second definition of s, with 32 elements.
__shared__ int s[32];
__device__ void g(int *o) { s[threadIdx.x] = 3; o[2] = s[5]; }
