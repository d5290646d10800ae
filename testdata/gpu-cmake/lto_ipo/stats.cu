#include "devmath.h"
__device__ float g_weights[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__device__ float stats_weight(int i) { return g_weights[i & 7]; }
