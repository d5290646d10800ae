__global__ void ksimple(int *p) { p[threadIdx.x] = threadIdx.x; }
