__constant__ int cb[8192];
__global__ void kb(int *o) { o[threadIdx.x] = cb[threadIdx.x]; }
