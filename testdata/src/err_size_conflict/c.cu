// A second definition of table with yet another size; nvlink stops after b.cubin, so it is
// never reported.
__device__ int table[8];
__global__ void kc(int *o) { o[threadIdx.x] = table[threadIdx.x & 7]; }
