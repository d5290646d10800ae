__global__ void k(float *out, const float *in, int n) {
  unsigned t = threadIdx.x;
  float a = 0;
  for (int i = 0; i < n; i++) { a += in[i * 32 + t]; out[i * 32 + t] = a; }
}
