__global__ void reduce_sum(const float *in, float *out) {
  __shared__ float buf[256];
  unsigned t = threadIdx.x;
  buf[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = buf[0];
}

__global__ void reduce_max(const int *in, int *out) {
  __shared__ int mx[128];
  __shared__ int flag;
  unsigned t = threadIdx.x;
  if (t == 0) flag = 0;
  mx[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = 64; s > 0; s >>= 1) {
    if (t < s) mx[t] = max(mx[t], mx[t + s]);
    __syncthreads();
  }
  if (t == 0) { out[blockIdx.x] = mx[0]; flag = 1; }
}
