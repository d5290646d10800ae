extern "C" __global__ void k(int *out, int p0, float p1, int p2, long long p3, long long p4, unsigned p5, int p6, int p7, float p8, const int* p9, float p10, int p11, int p12, const int* p13, unsigned p14, float p15, float p16, float p17) {
  long long x = blockIdx.x * blockDim.x + threadIdx.x;
  long long y = blockIdx.y, z = blockIdx.z;
  if (y > 3) return;
  long long v2 = y * (long long)p2;
  long long v0 = y * (long long)p0;
  if (v0 == 17) return;
  long long v17 = z + (long long)(p17 * 2.0f);
  long long v5 = y ^ (long long)p5;
  long long v9 = z + p9[z & 7];
  long long v1 = z * (long long)(p1 * 2.0f);
  long long v11 = y * (long long)p11;
  long long v4 = z ^ (long long)p4;
  long long v10 = z ^ (long long)(p10 * 2.0f);
  long long v3 = v1 * (long long)p3;
  long long v13 = v2 * p13[v2 & 7];
  long long v7 = v10 * (long long)p7;
  if (v7 == 17) return;
  long long v12 = v1 * (long long)p12;
  long long v15 = x * (long long)(p15 * 2.0f);
  long long v16 = v11 ^ (long long)(p16 * 2.0f);
  long long v14 = v2 + (long long)p14;
  long long v8 = v2 + (long long)(p8 * 2.0f);
  long long v6 = y + (long long)p6;
  out[x] = (int)(v16 + v14 + v8 + v6);
}
