extern __device__ bool is_even(unsigned n);

__device__ unsigned long long fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ int ackermann_ish(int m, int n) {
  int buf[8];
  for (int i = 0; i < 8; ++i) buf[i] = m * i + n;
  if (m == 0) return n + 1 + buf[n & 7];
  return ackermann_ish(m - 1, n == 0 ? 1 : ackermann_ish(m, n - 1));
}

__global__ void recurse(unsigned long long *out, int *o2, bool *o3) {
  out[threadIdx.x] = fib(threadIdx.x & 15);
  o2[threadIdx.x] = ackermann_ish(2, threadIdx.x & 3);
  o3[threadIdx.x] = is_even(threadIdx.x);
}
