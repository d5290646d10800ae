// table defined again with 32 elements and an initialiser (.nv.global.init).
__device__ int table[32] = {1, 2, 3};
__global__ void kb(int *o) { o[threadIdx.x] = table[threadIdx.x & 31]; }
