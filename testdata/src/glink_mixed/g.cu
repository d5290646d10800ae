__device__ int from_lineinfo(int x);  // li.cu
__device__ int from_plain(int x);     // plain.cu
__global__ void kg(int *p) {
  int t = threadIdx.x;
  int a = from_lineinfo(t);
  int b = from_plain(a);
  p[t] = a + b;
}
