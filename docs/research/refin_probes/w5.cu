__global__ void k(double *out, const double *in) {
  __shared__ double buf[256];
  unsigned t = threadIdx.x;
  buf[t] = in[t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = buf[0];
}
