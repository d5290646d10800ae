// Prefix sums along one axis of a stack of 2-D slices, in place, by doubling
// strides; the slice window starts at an offset.
__global__ void slice_scan(double *img, const int rows, const int cols, const bool along_rows,
                           const int off_x, const int off_y, const int depth) {
  const int tx = blockIdx.x * blockDim.x + threadIdx.x;
  const int ty = blockIdx.y * blockDim.y + threadIdx.y;
  const int x = tx + off_x;
  const int y = ty + off_y;
  const int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= cols || y >= rows || z >= depth)
    return;
  if (along_rows) {
    for (int s = 1; s <= blockDim.y; s *= 2) {
      int from = ty - s;
      double v = 0;
      if (from >= 0)
        v = img[z * cols * rows + (off_y + from) * cols + x];
      if (from >= 0)
        img[z * cols * rows + y * cols + x] += v;
    }
  } else {
    for (int s = 1; s <= blockDim.x; s *= 2) {
      int from = tx - s;
      double v = 0;
      if (from >= 0)
        v = img[z * cols * rows + y * cols + from + off_x];
      if (from >= 0)
        img[z * cols * rows + y * cols + x] += v;
    }
  }
}
