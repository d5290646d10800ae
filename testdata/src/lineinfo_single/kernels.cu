// -lineinfo: .debug_line, .nv_debug_line_sass, .nv_debug_ptx_txt.<hash>
// (and their sm_100+ Mercury twins .nv.merc.*) with relocations per function.
__device__ int g_total;

static __device__ __forceinline__ int mix(int a, int b) { return (a ^ (b << 3)) + 7; }

__device__ __noinline__ int scale(int x) { return x * 5 + mix(x, 2); }

// Never referenced: removed by the link, with its line-table relocations.
__device__ __noinline__ int unused_helper(int x) { return x * x - 3; }

__global__ void k_calls(int *p, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += scale(p[i]);
  p[0] = s;
  atomicAdd(&g_total, s);
}

__global__ void k_frame(int *p) {
  int buf[32];
  for (int i = 0; i < 32; i++)
    buf[i] = p[i] + i;
  p[threadIdx.x] = buf[p[1] & 31] + scale(p[2]);
}

__global__ void k_leaf(int *p) { p[threadIdx.x] = mix(p[threadIdx.x], g_total); }

// sm_100+: a release fence nvlink re-finalizes without its padding (the
// line tables follow the moved code).
__global__ void k_release(int *p, int n) {
  int t = threadIdx.x;
  if (t < n) { p[t] = t * 3; asm volatile("red.release.gpu.global.add.s32 [%0], %1;" :: "l"(p + 1000), "r"(t) : "memory"); }
  else { p[t] = 7; }
  p[t + 64] = n;
}
