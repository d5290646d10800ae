__global__ void k(long long *out, unsigned n) {
  __shared__ long long s[256];
  unsigned t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  for (unsigned d = n; d > 0; d >>= 1) { if (t < d) s[t] += s[t + d]; __syncthreads(); }
  if (t == 0) out[blockIdx.x] = s[0];
}
