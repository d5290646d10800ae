// A 3-D window minimum with an early exit: in the straight-line start ptxas
// shares indices for lack of a free one several times while the stack-pointer
// load is pending; the LDCU read after its shared wait takes the index that
// load frees in nvlink's code, the other shares stay.
__global__ void box_min3d(const float *src, float *dst, int sx, int sy, int kw, int kh, int depth,
                          int width, int height, int ow, int oh) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i >= ow || j >= oh || k >= depth) return;
  float best = 3.0e38f;
  for (int dy = 0; dy < kh; dy++) {
    int row = ((k * height + j * sy + dy) * width) + i * sx;
    for (int dx = 0; dx < kw; dx++) best = fminf(best, src[row + dx]);
  }
  dst[(k * oh + j) * ow + i] = best;
}
