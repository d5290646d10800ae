// flags: -std=c++17 --extended-lambda --expt-relaxed-constexpr
// Names from CUDA's own headers: cub, cooperative groups, libcu++, thrust
// functors, thrust functors.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cub/block/block_reduce.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cuda/std/array>
#include <cuda/std/complex>
#include <cuda/std/tuple>
#include <thrust/functional.h>
#include <thrust/pair.h>
#include <thrust/tuple.h>

#define P __device__ __noinline__
namespace cg = cooperative_groups;

P void step(cg::grid_group g, float *p, int n) { if (g.thread_rank() < n) p[g.thread_rank()] += 1; }
P int tile_sum(cg::thread_block_tile<32> t, int v) { return cg::reduce(t, v, cg::plus<int>()); }
P int blk(cg::thread_block b) { return b.thread_rank(); }

template <typename Op> P float reduce_with(Op op, float a, float b) { return op(a, b); }
P float thr(thrust::pair<int, float> p, thrust::tuple<int, float, double> t) { return p.first + p.second + thrust::get<2>(t); }
P float cstd(cuda::std::array<float, 4> a, cuda::std::complex<float> c, cuda::std::tuple<int, char> t) {
  return a[0] + c.real() + cuda::std::get<0>(t);
}

using BlockReduceT = cub::BlockReduce<int, 128>;
using WarpReduceT = cub::WarpReduce<float>;

__global__ void libs_kernel(float *f, int *o, thrust::pair<int, float> *pp, thrust::tuple<int, float, double> *tp) {
  cg::grid_group g = cg::this_grid();
  step(g, f, o[0]);
  cg::thread_block b = cg::this_thread_block();
  o[1] = tile_sum(cg::tiled_partition<32>(b), o[2]) + blk(b);
  f[2] = reduce_with(thrust::plus<float>(), f[3], f[4]) + reduce_with(thrust::maximum<float>(), f[5], f[6]);
  f[9] = thr(*pp, *tp);
  cuda::std::array<float, 4> a{f[0], f[1], f[2], f[3]};
  f[10] = cstd(a, cuda::std::complex<float>(f[11], f[12]), cuda::std::tuple<int, char>(o[3], 'c'));
  __shared__ BlockReduceT::TempStorage tmp;
  o[11] = BlockReduceT(tmp).Sum(o[12]);
  __shared__ WarpReduceT::TempStorage wtmp;
  f[13] = WarpReduceT(wtmp).Sum(f[14]);
}
