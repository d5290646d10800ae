extern __constant__ int k_mode;
__device__ float normalize(float x, float lo, float hi) {
  float t = (x - lo) / (hi - lo);
  return k_mode ? fminf(fmaxf(t, 0.f), 1.f) : t;
}

__global__ void stage2(float *a, int n) {
  __shared__ int count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  if (threadIdx.x < n && a[threadIdx.x] > 0.5f) atomicAdd(&count, 1);
  __syncthreads();
  if (threadIdx.x == 0) a[0] = (float)count;
}
