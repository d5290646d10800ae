__device__ int s[8];
__global__ void k2(int *o) { o[0] = s[o[1]]; }
