// A shared-memory shift register advanced in blocks: each round moves the
// window down and recomputes its last third from lagged entries.
#define W 256
#define LAG 32

__global__ void advance_window(unsigned *y, int steps) {
  __shared__ unsigned buf[3 * W];
  unsigned *tail = &buf[2 * W];
  int t = threadIdx.x;
  tail[t] = y[2 * W + t];
  __syncthreads();
  for (int k = 0; k < steps / W; k++) {
    buf[t] = buf[t + W];
    buf[t + W] = tail[t];
    __syncthreads();
    for (int i = 0; i < W; i += LAG) {
      if (t < LAG)
        tail[i + t] = tail[i + t - 41] + tail[i + t - 97] + tail[i + t - 167] + tail[i + t - W];
      __syncthreads();
    }
  }
  y[2 * W + t] = buf[2 * W + t];
  y[W + t] = buf[W + t];
  y[t] = buf[t];
}
