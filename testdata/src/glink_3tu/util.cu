__device__ float blend(float a, int b) {
  float r = a;
  if (b > 4)
    r = a * b;
  return r + 0.25f;
}
static __device__ float dead_static(float x) { return x * x; }
__global__ void kutil(float *p) { p[threadIdx.x] = blend(p[threadIdx.x], (int)threadIdx.x) + dead_static(p[0]); }
