#include <cstdlib>
extern __device__ void fv(int);
__global__ void kx(int **o) { o[0] = (int *)malloc(16); fv(1); }
