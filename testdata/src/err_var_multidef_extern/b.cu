__device__ int table[16];
__device__ void f(int *o) { o[1] = table[3]; }
