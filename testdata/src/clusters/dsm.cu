#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int neighbour_sum(int *smem, int rank) {
  cg::cluster_group c = cg::this_cluster();
  int *other = c.map_shared_rank(smem, (rank + 1) % (int)c.num_blocks());
  return smem[threadIdx.x] + other[threadIdx.x];
}

// No compile-time cluster shape: launched with cudaLaunchKernelEx cluster attributes.
__global__ void __launch_bounds__(128) k_dyncluster(int *out) {
  cg::cluster_group c = cg::this_cluster();
  c.sync();
  out[blockIdx.x] = (int)c.block_rank();
}
