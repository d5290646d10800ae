// The first instantiation of tk<float> (more registers): replaced by narrow.cu's.
#include "tk.h"
template __global__ void tk<float>(const float *, float *, int);
__global__ void k_wide(float *o) { o[0] = 1.0f; }
