__global__ void k(int *p, int n) { for (int i = 0; i < n; i++) { p[threadIdx.x] = i; __threadfence(); } }
