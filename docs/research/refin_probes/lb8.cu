__global__ void __launch_bounds__(256, 3) k (float *out, const float *in, int n) {
  __shared__ float buf[64];
  unsigned t = threadIdx.x;
  buf[t] = in[t];
  __syncthreads();
  float s = 0;
  for (int i = 0; i < n; ++i) s += buf[(t + i) & 63];
  out[t] = s;
}
