#include "tile.h"
__shared__ char b_c[3];
__global__ void k_b3(float *o) { b_c[threadIdx.x % 3] = 1; __syncthreads(); o[1] = b_c[2]; }
void launch_b3(float *o) { k_b3<<<1, 8>>>(o); k_tile<64><<<1, 64>>>(o); }
