template <typename T> __device__ T twice(T v) { return v + v; }
__device__ int scale(int v) {
  int acc = 0;
  for (int i = 0; i < 3; ++i)
    acc += twice(v) + i;
  return acc;
}
__device__ int unused_lib(int v) { return twice(v) * 3; }
__global__ void klib(int *p) { p[threadIdx.x] = scale(p[threadIdx.x]); }
