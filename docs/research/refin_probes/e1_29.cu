struct P { char *dst; const char *src; size_t f0; size_t f1; int f2; size_t f3; unsigned f4; unsigned f5; unsigned long long f6; unsigned f7; size_t f8; int f9; };
extern "C" __global__ void k(P p) {
  unsigned long long x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned long long z = blockIdx.z * blockDim.z + threadIdx.z;
  unsigned long long a = p.f5 * y + p.f8 * y;
  if (x >= p.f9) return;
  for (unsigned long long i = 0; i < p.f0; i++) p.dst[a + i + p.f0 * a + p.f1 * z + p.f2 * y + p.f3 * x + p.f4 * y + p.f6 * z + p.f7 * y] = p.src[a + i];
}
