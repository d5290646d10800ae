struct P { char *dst; const char *src; unsigned long f0; unsigned f1; unsigned long f2; unsigned long f3; unsigned long f4; unsigned long f5; unsigned long f6; unsigned f7; unsigned long f8; unsigned long f9; unsigned long f10; unsigned long f11; unsigned long f12; unsigned f13; };
extern "C" __global__ void k(P p) {
  unsigned long x = blockIdx.x + (unsigned long)threadIdx.y * blockDim.y;
  unsigned long y = threadIdx.x;
  unsigned long z = blockIdx.y;
  if (z >= p.f7 || y * p.f13 + p.f9 >= p.f3) return;
  for (unsigned long i = y; i < p.f0; i += blockDim.x) p.dst[p.f12 * y + p.f2 * z + i] = p.src[x + i];
}
