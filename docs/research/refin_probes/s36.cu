struct P { int *dst; const int *src; unsigned long long f0; unsigned f1; int f2; unsigned f3; unsigned long long f4; unsigned f5; unsigned long long f6; int f7; unsigned long long f8; unsigned f9; };
extern "C" __global__ void k(P p) {
  unsigned long long x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned long long z = blockIdx.z;
  unsigned long long a = p.f5 * x + p.f1 * x + p.f0 * z;
  if (z >= p.f5 || y >= p.f1 || x >= p.f0) return;
  p.dst[a + p.f2 * y + p.f3 * x + p.f4 * x + p.f6 * z + p.f7 * y + p.f8 * z + p.f9 * x] = p.src[a];
}
