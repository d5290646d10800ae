#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *p, int n) { cg::grid_group g = cg::this_grid(); for (int i = 0; i < n; i++) { p[g.thread_rank()] += i; g.sync(); } }
