template <typename T> __device__ T clampv(T v, T lo, T hi) { return v < lo ? lo : (v > hi ? hi : v); }
__device__ int accumulate(int base, int n) {
  int sum = base;
  for (int i = 0; i < n; ++i)
    sum += clampv(i * base, -50, 50);
  return sum;
}
__device__ float smooth(float x) {
  float y = x * x;
  return y / (1.0f + y);
}
__device__ int orphan(int a) { return a ^ 0x55; }
