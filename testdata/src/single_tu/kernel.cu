__device__ __noinline__ int scale(int x, int s) { return x * s + 7; }

__global__ void fill(int *out, int s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = scale(i, s);
}

__global__ void add(float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += b[i];
}
