// und is defined nowhere.
__device__ int und(int);
__global__ void k2(int *o) { o[0] = und(o[1]); }
