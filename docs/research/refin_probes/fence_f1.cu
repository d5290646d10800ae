#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *p) { cg::grid_group g = cg::this_grid(); p[g.thread_rank()] = 1; g.sync(); p[0] += p[1]; }
