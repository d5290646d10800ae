__device__ int g_bias = 7;
__device__ int add_bias(int x) { return x + g_bias; }
