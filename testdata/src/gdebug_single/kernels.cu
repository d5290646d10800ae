// -G (full device debug info): two kernels, a branch, a local loop, a dead function.
__global__ void k1(int *p, const int *q) {
  int i = threadIdx.x;
  p[i] = q[i] + q[i + 32] * 3;
}

__global__ void k2(float *p, const float *q, int n) {
  int i = threadIdx.x;
  if (i < n)
    p[i] = q[i] * 2.0f;
  else
    p[i] = 1.0f;
}

__device__ int never_called(int x) { return x * 7; }

__global__ void k3(int *out, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i;
  out[threadIdx.x] = s;
}
