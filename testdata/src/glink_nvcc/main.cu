#include <cstdio>
__global__ void kfirst(int *out, int n);
__global__ void ksecond(float *out);
__global__ void kunused(int *out);
int main() {
  int *d; float *f;
  cudaMalloc(&d, 256); cudaMalloc(&f, 256);
  kfirst<<<1, 32>>>(d, 5);
  ksecond<<<1, 32>>>(f);
  cudaDeviceSynchronize();
  return 0;
}
