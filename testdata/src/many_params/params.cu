struct Big { float v[64]; int n; };

__global__ void many(int *out, char c0, short s0, int i0, long long l0, float f0, double d0,
                     int i1, int i2, int i3, int i4, int i5, int i6, int i7, int i8,
                     float f1, float f2, float f3, float f4, double d1, double d2,
                     const float *p1, const double *p2, unsigned u0, unsigned long long u1,
                     bool b0, char c1, int i9, int i10, int i11, int i12) {
  long long acc = c0 + s0 + i0 + l0 + (long long)f0 + (long long)d0 + i1 + i2 + i3 + i4 + i5 +
                  i6 + i7 + i8 + (long long)(f1 + f2 + f3 + f4) + (long long)(d1 * d2) +
                  (long long)p1[0] + (long long)p2[1] + u0 + u1 + b0 + c1 + i9 + i10 + i11 + i12;
  out[threadIdx.x] = (int)acc;
}

__global__ void big_param(Big b, float *out) {
  out[threadIdx.x] = b.v[threadIdx.x & 63] * b.n;
}
