__constant__ float k_weights[16] = {1, 2, 3, 4, 5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1};
__constant__ int k_mode;
__device__ unsigned long long g_hits;
__device__ float g_last = -1.f;
