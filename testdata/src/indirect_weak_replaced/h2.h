typedef float (*unary_fn)(float);
extern __device__ unary_fn op_table[4];
template <int N> __device__ __noinline__ float heavy(const float *in, unary_fn fn) {
  float acc[N];
#pragma unroll
  for (int i = 0; i < N; ++i) acc[i] = in[i * 7] * (i + 1);
  float s = 0;
#pragma unroll
  for (int i = 0; i < N; ++i) s += fn(acc[i]) * acc[(i + 3) % N];
  return s;
}
