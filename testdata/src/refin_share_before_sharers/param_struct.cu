struct P { int *dst; const int *src; int f0; int f1; unsigned long long f2; unsigned f3; unsigned f4; unsigned f5; int f6; unsigned f7; unsigned f8; int f9; int f10; };
extern "C" __global__ void k(P p) {
  unsigned long long x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned long long z = blockIdx.z;
  unsigned long long a = p.f2 * x + p.f7 * y + p.f5 * x + p.f4 * y + p.f0 * z;
  if (z >= p.f2 || y >= p.f7) return;
  p.dst[a + p.f1 * a + p.f3 * y + p.f6 * x + p.f8 * x + p.f9 * z + p.f10 * x] = p.src[a];
}
