__global__ void k(int *p, int n) {
  for (int i = 0; i < n; i++) { p[threadIdx.x + i] += i; __threadfence(); if (p[i] > 3) { atomicAdd(p + 7, 1); __threadfence(); } }
}
