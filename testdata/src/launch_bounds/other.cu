__device__ float work(float x, int i) {
  float acc = x;
  for (int k = 0; k < 8; ++k) acc = acc * 1.0001f + (float)(i + k);
  return acc;
}

__global__ void __launch_bounds__(64, 2) lb64x2(float *a) { a[threadIdx.x] = work(a[threadIdx.x], 3); }
__global__ void unbounded(float *a) { a[threadIdx.x] = work(1.f, threadIdx.x); }
