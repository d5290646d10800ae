// A block-wide 3-D bounding-box reduction: each halving step is an `if`
// block that ends in shared stores whose read scoreboards are never waited
// on.
#define T 512

__global__ void bounds(const float4 *p, float3 *lo, float3 *hi, float *extent, int n) {
  __shared__ float s0[T], s1[T], s2[T], s3[T], s4[T], s5[T];
  int i = threadIdx.x;
  float4 q = p[0];
  float a = q.x, b = q.x, c = q.y, d = q.y, e = q.z, f = q.z;
  for (int k = blockIdx.x * T + i; k < n; k += gridDim.x * T) {
    float4 r = p[k];
    a = fminf(a, r.x); b = fmaxf(b, r.x);
    c = fminf(c, r.y); d = fmaxf(d, r.y);
    e = fminf(e, r.z); f = fmaxf(f, r.z);
  }
  s0[i] = a; s1[i] = b; s2[i] = c; s3[i] = d; s4[i] = e; s5[i] = f;
  for (int j = T / 2; j > 0; j /= 2) {
    __syncthreads();
    if (i < j) {
      int k = i + j;
      s0[i] = a = fminf(a, s0[k]);
      s1[i] = b = fmaxf(b, s1[k]);
      s2[i] = c = fminf(c, s2[k]);
      s3[i] = d = fmaxf(d, s3[k]);
      s4[i] = e = fminf(e, s4[k]);
      s5[i] = f = fmaxf(f, s5[k]);
    }
  }
  if (i == 0) {
    lo[blockIdx.x] = make_float3(a, c, e);
    hi[blockIdx.x] = make_float3(b, d, f);
    extent[blockIdx.x] = fmaxf(fmaxf(b - a, d - c), f - e);
  }
}
