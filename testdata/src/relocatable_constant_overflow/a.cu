// 32 KiB + 4 bytes of __constant__ data here, 32 KiB in b.cu: over the 64 KiB bank.
__constant__ int ca[8193];
__global__ void ka(int *o) { o[threadIdx.x] = ca[threadIdx.x]; }
