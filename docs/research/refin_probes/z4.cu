__global__ void k(unsigned *out, const unsigned *in, int n) {
  unsigned t = threadIdx.x, x = in[t];
  while (x > 1) { x = (x & 1) ? 3 * x + 1 : x / 2; if (x == 7) out[t + 1] = t; }
  out[t] = x;
}
