// Each thread accumulates its share of a range split evenly over the grid:
// the bounds divide by the grid size, known only at run time.
__global__ void spread(float *out, const float *in, int n, float scale) {
  const int pos = blockIdx.x * blockDim.x + threadIdx.x;
  const int size = blockDim.x * gridDim.x;
  for (int k = n * pos / size; k < n * (pos + 1) / size; ++k)
    out[k] += scale * in[k % 7];
}
