extern "C" __global__ void k(int *out, float p0, long long p1, unsigned p2, int p3, const int* p4, const int* p5, int p6, int p7, unsigned p8, float p9, long long p10, long long p11) {
  long long x = blockIdx.x * blockDim.x + threadIdx.x;
  long long y = blockIdx.y, z = blockIdx.z;
  if (y > 3) return;
  long long v6 = z * (long long)p6;
  long long v9 = v6 + (long long)(p9 * 2.0f);
  long long v2 = y * (long long)p2;
  long long v0 = x ^ (long long)(p0 * 2.0f);
  long long v11 = z ^ (long long)p11;
  if (v11 == 17) return;
  long long v10 = v9 * (long long)p10;
  long long v4 = x + p4[x & 7];
  long long v7 = v0 ^ (long long)p7;
  long long v1 = v2 ^ (long long)p1;
  long long v5 = v6 * p5[v6 & 7];
  long long v8 = v10 + (long long)p8;
  long long v3 = v0 * (long long)p3;
  out[x] = (int)(v1 + v5 + v8 + v3);
}
