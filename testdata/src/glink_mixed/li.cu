__device__ int from_lineinfo(int x) {
  int r = 0;
  for (int i = 0; i < x; ++i) r += i & 3;
  return r;
}
__global__ void kli(int *p) { p[threadIdx.x] = from_lineinfo(p[0]); }
