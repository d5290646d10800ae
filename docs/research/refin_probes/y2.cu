__global__ void k(int *out, int n) {
  __shared__ int s[256];
  unsigned t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  for (int i = 1; i < n; i *= 2) { if ((t % (2 * i)) == 0) s[t] += s[t + i]; __syncthreads(); }
  if (t == 0) out[blockIdx.x] = s[0];
}
