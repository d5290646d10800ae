// Device data defined in its own translation unit.
__constant__ float c_weights[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
__device__ int g_offsets[4] = {100, 200, 300, 400};
__device__ unsigned long long g_total;
__managed__ int m_flag = 7;
__device__ int scale(int v) { return v * m_flag; }
