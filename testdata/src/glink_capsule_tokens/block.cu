// cub::BlockReduce in a kernel; the per-element transform lives in warp.cu.
#include <cub/cub.cuh>

extern __device__ float scale_elem(float x);

__global__ void block_sum(const float *in, float *out) {
  typedef cub::BlockReduce<float, 128> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp;
  float v = scale_elem(in[blockIdx.x * 128 + threadIdx.x]);
  float s = BlockReduce(temp).Sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

__global__ void block_max(const int *in, int *out) {
  typedef cub::BlockReduce<int, 64, cub::BLOCK_REDUCE_RAKING> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp;
  int m = BlockReduce(temp).Reduce(in[threadIdx.x], ::cuda::maximum<>{});
  if (threadIdx.x == 0) *out = m;
}
