__device__ void s(int *o);
__global__ void k(int *o) { s(o); }
