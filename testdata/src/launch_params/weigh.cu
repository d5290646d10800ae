#include "params.h"
__device__ float weigh(const Big &b, int i) { return b.coef[i % 24] * b.src[i % b.n]; }

__global__ void __launch_bounds__(64) k_other(const __grid_constant__ Big b, int *flag) {
  *flag = (int)weigh(b, blockIdx.x);
}
