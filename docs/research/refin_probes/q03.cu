extern "C" __global__ void k(int *out, const int* p0, const int* p1, unsigned p2, int p3, long long p4, int p5, unsigned p6, unsigned p7, const int* p8, long long p9, float p10, int p11, long long p12) {
  long long x = blockIdx.x * blockDim.x + threadIdx.x;
  long long y = blockIdx.y, z = blockIdx.z;
  if (y > 3) return;
  long long v3 = x ^ (long long)p3;
  long long v1 = z ^ p1[z & 7];
  long long v6 = y + (long long)p6;
  long long v7 = v6 + (long long)p7;
  if (v7 == 17) return;
  long long v11 = v3 * (long long)p11;
  long long v9 = x * (long long)p9;
  long long v12 = v3 ^ (long long)p12;
  long long v4 = v6 * (long long)p4;
  long long v10 = v6 * (long long)(p10 * 2.0f);
  if (v10 == 17) return;
  long long v0 = y + p0[y & 7];
  long long v8 = v6 + p8[v6 & 7];
  long long v2 = v12 + (long long)p2;
  long long v5 = v4 * (long long)p5;
  out[x] = (int)(v0 + v8 + v2 + v5);
}
