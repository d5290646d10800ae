#include <cstdio>
__global__ void kdebug(int *p, int n);
__global__ void kplain(float *p);
int main() {
  int *d; float *f;
  cudaMalloc(&d, 128); cudaMalloc(&f, 128);
  kdebug<<<1, 32>>>(d, 3);
  kplain<<<1, 32>>>(f);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
