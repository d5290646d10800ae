// First definition of s: 16 elements.
__shared__ int s[16];
__device__ void f(int *o) { s[threadIdx.x] = 2; o[1] = s[3]; }
