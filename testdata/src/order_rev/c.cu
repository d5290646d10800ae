extern __device__ int f3(int);
__device__ int f2(int x) { return f3(x ^ 3) - 5; }
