#include <cstdio>
__global__ void parent(int *p);
int main() { int *d; cudaMalloc(&d, 128); parent<<<1,1>>>(d); cudaDeviceSynchronize(); return 0; }
