extern "C" __global__ void k(int *out, int p0, const int* p1, int p2, unsigned p3, long long p4, unsigned p5, unsigned p6, const int* p7, float p8, float p9, long long p10, const int* p11, long long p12, const int* p13, long long p14, float p15, float p16) {
  long long x = blockIdx.x * blockDim.x + threadIdx.x;
  long long y = blockIdx.y, z = blockIdx.z;
  if (y > 3) return;
  long long v4 = y ^ (long long)p4;
  long long v14 = y ^ (long long)p14;
  if (v14 == 17) return;
  long long v0 = z ^ (long long)p0;
  long long v16 = v14 + (long long)(p16 * 2.0f);
  long long v10 = y ^ (long long)p10;
  long long v6 = v0 + (long long)p6;
  long long v3 = v4 * (long long)p3;
  long long v15 = y + (long long)(p15 * 2.0f);
  long long v13 = y + p13[y & 7];
  long long v12 = z * (long long)p12;
  long long v7 = v16 * p7[v16 & 7];
  if (v7 == 17) return;
  long long v2 = v15 + (long long)p2;
  long long v8 = v2 * (long long)(p8 * 2.0f);
  long long v5 = x * (long long)p5;
  long long v9 = v7 ^ (long long)(p9 * 2.0f);
  long long v11 = v3 * p11[v3 & 7];
  if (v11 == 17) return;
  long long v1 = v6 ^ p1[v6 & 7];
  out[x] = (int)(v5 + v9 + v11 + v1);
}
