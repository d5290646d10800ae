#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void __cluster_dims__(4,1,1) k(int *p, int n) {
  cg::cluster_group c = cg::this_cluster();
  for (int i = 0; i < n; i++) { p[blockIdx.x] += i; c.sync(); if (p[0] == 42) break; }
}
