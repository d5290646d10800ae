__global__ void k(float *out, unsigned n) {
  __shared__ float buf[256];
  unsigned t = threadIdx.x;
  buf[t] = t;
  __syncthreads();
  for (unsigned s = n; s > 0; s >>= 1) {
    if (t < s) buf[t] = buf[t + s];
    __syncthreads();
  }
  out[t] = buf[0];
}
