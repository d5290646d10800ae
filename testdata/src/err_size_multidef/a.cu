// table defined with 16 elements (zero-initialised, .nv.global).
__device__ int table[16];
__global__ void ka(int *o) { o[threadIdx.x] = table[threadIdx.x & 15]; }
