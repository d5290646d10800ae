// The device function of the shared-memory GPU check: its own namespace-scope array.
__shared__ int s_c[32];
__device__ __noinline__ int touch_c(int lane, int v) {
  s_c[lane] = v;
  __syncthreads();
  return s_c[lane] * 2;
}
