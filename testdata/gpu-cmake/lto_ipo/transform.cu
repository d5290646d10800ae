#include "devmath.h"
__device__ float transform_value(float x) { return clamp01(sinf(x) * 0.5f + 0.5f) * stats_weight(int(x) & 7); }
