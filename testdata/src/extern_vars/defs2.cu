__device__ int g_init[4] = {10, 20, 30, 40};
__device__ double g_scale = 0.5;
