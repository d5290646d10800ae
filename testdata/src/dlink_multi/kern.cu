// Kernels calling device functions defined in util.cu.
extern __device__ float scale_value(float x);
extern __device__ float offset_value(float x, float off);

__global__ void scale_kernel(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = scale_value(data[i]);
}

__global__ void offset_kernel(float *data, int n, float off) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = offset_value(data[i], off);
}
