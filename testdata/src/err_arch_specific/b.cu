// The device function of the mixed-arch cases.
__device__ __noinline__ float scale(float x, int k) { return x * (float)(k + 1) + 0.5f; }
