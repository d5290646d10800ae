__device__ int table[16] = {1};
__device__ void g(int *o) { o[2] = table[5]; }
