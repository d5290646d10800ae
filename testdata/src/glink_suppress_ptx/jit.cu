__device__ int mix(int a, int b) {
  int r = a;
  for (int i = 0; i < b; ++i) r = r * 3 + i;
  return r;
}
__global__ void kdebug(int *p, int n) { p[threadIdx.x] = mix(threadIdx.x, n); }
