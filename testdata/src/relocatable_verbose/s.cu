// A device function with a local array (stack frame) and its own data.
__device__ double g_table[16] = {0.5};
__device__ __noinline__ float scale(float x, int n) {
  float tmp[24];
  for (int i = 0; i < 24; ++i) tmp[i] = x * i + (float)g_table[i & 15];
  return tmp[n % 24];
}
