extern __device__ int x[4];
__constant__ int *cq = &x[2];
__global__ void k2(int *p) { p[0] = *cq; }
