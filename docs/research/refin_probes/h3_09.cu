struct P { char *dst; const char *src; unsigned f0; unsigned long f1; unsigned long f2; unsigned long f3; unsigned f4; unsigned long f5; unsigned long f6; unsigned long f7; unsigned f8; unsigned long f9; unsigned f10; unsigned long f11; unsigned f12; unsigned long f13; };
extern "C" __global__ void k(P p) {
  unsigned long x = blockIdx.x + (unsigned long)threadIdx.y * blockDim.y;
  unsigned long y = threadIdx.x;
  unsigned long z = blockIdx.y;
  if (x >= p.f5 || y * p.f10 + p.f1 >= p.f9 || z >= p.f12) return;
  for (unsigned long i = y; i < p.f6; i += blockDim.x) p.dst[p.f2 * x + p.f4 * y + i] = p.src[x + i];
}
