extern "C" __global__ void k_mufu(int *out, long long p0, const int* p1, int p2, int p3, float p4, int p5, unsigned p6, float p7, int p8, float p9, long long p10) {
  long long x = blockIdx.x * blockDim.x + threadIdx.x;
  long long y = blockIdx.y, z = blockIdx.z;
  long long v8 = x ^ (long long)p8;
  long long v2 = x ^ (long long)p2;
  long long v5 = x + (long long)p5;
  if (v5 == 17) return;
  long long v3 = y * (long long)p3;
  long long v4 = v2 + (long long)(p4 * 2.0f);
  long long v0 = z + (long long)p0;
  long long v7 = v8 * (long long)(p7 * 2.0f);
  if (v7 == 17) return;
  long long v10 = y ^ (long long)p10;
  if (v10 == 17) return;
  long long v9 = v8 * (long long)(p9 * 2.0f);
  long long v6 = v3 * (long long)p6;
  long long v1 = v4 * p1[v4 & 7];
  out[x] = (int)(v10 + v9 + v6 + v1);
}
