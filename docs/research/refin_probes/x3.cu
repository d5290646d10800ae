__global__ void k(float *out, int n, int m) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = t;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) { if (t < j) s[t] += s[t + j]; __syncthreads(); }
  out[t] = s[t];
}
