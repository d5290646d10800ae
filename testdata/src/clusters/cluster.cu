// Thread-block clusters (sm_90+): compile-time __cluster_dims__, cluster.sync() and
// distributed shared memory through map_shared_rank; a helper in dsm.cu.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern __device__ int neighbour_sum(int *smem, int rank);

__global__ void __cluster_dims__(2, 1, 1) k_cluster2(int *out) {
  __shared__ int smem[64];
  cg::cluster_group c = cg::this_cluster();
  smem[threadIdx.x] = threadIdx.x + (int)c.block_rank();
  c.sync();
  out[blockIdx.x * 64 + threadIdx.x] = neighbour_sum(smem, (int)c.block_rank());
  c.sync();
}

__global__ void __cluster_dims__(4, 2, 1) k_cluster8(int *out) {
  cg::cluster_group c = cg::this_cluster();
  out[blockIdx.x] = (int)c.num_blocks() + (int)c.dim_blocks().y;
  c.sync();
}
