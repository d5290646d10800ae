// Declares both arrays extern with other sizes: undefined symbols whose st_size (0x20, 0x80)
// disagrees with a.cu's definitions.
extern __device__ int other[8];
extern __device__ int table[32];
__device__ int fine[2];
__global__ void kb(int *o) { o[threadIdx.x] = table[threadIdx.x & 31] + other[threadIdx.x & 7] + fine[1]; }
