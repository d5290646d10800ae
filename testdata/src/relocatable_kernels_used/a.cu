extern __device__ int bar(int);
__global__ void kern(int *p){ p[0]=bar(p[1]); }
