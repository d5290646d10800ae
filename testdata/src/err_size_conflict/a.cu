// Defines table[16] and other[4].
__device__ int table[16];
__device__ int other[4];
__global__ void ka(int *o) { o[threadIdx.x] = table[threadIdx.x & 15] + other[3]; }
