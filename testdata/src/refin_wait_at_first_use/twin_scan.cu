// A block scan over pairs of elements: in the loop, ptxas waits for the shared
// store's read scoreboard at the first load, which takes the store's index;
// nvlink, with the store on another index, waits at the load that takes it.
__global__ void twin_scan(float *dst, const float *src, unsigned n) {
  extern __shared__ float s[];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  s[2 * t] = src[2 * g];
  s[2 * t + 1] = src[2 * g + 1];
  __syncthreads();
  float lo = s[0], hi = lo + s[1];
  for (unsigned step = 1; step < n; step <<= 1) {
    if (2 * t >= step) {
      lo = s[2 * t - step] + s[2 * t];
      hi = s[2 * t + 1 - step] + s[2 * t + 1];
    }
    __syncthreads();
    s[2 * t] = lo;
    s[2 * t + 1] = hi;
    __syncthreads();
  }
  dst[2 * g] = s[2 * t];
  dst[2 * g + 1] = s[2 * t + 1];
}
