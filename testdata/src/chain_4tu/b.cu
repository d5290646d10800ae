extern __device__ int f2(int);
__device__ int f1(int x) { return f2(x + 1) * 2; }
