__global__ void k(float *out, const float *in, int n) {
  __shared__ float s[128];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  float acc = 0;
  for (int i = 0; i < n; i++) {
    if (s[(t + i) & 127] > 0) acc += s[(t * i) & 127]; else s[t] = acc;
    __syncthreads();
  }
  out[t] = acc;
}
