struct P { char *dst; const char *src; unsigned long long f0; size_t f1; int f2; unsigned long long f3; unsigned long long f4; unsigned f5; unsigned f6; unsigned f7; unsigned long long f8; size_t f9; unsigned long long f10; };
extern "C" __global__ void k_loop(P p) {
  unsigned long x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned long z = blockIdx.z * blockDim.z + threadIdx.z;
  unsigned long a = p.f4 * z + p.f5 * x;
  if (x >= p.f0) return;
  for (unsigned long i = 0; i < p.f3; i++) p.dst[a + i + p.f1 * z + p.f2 * z + p.f3 * a + p.f6 * y + p.f7 * x + p.f8 * z + p.f9 * a + p.f10 * a] = p.src[a + i];
}
