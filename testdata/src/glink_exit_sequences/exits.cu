// -g on sm_100+: kernels compiled without -G get nvlink's debug exit
// sequence before each EXIT (predicated exits, an EXIT at the end of the
// opening block with the stack-pointer load pending, calls whose return
// addresses move, loops).
__global__ void early(int *o, int n) {
  int i = threadIdx.x;
  if (i >= n)
    return;
  o[i] = i * 3;
}

__global__ void two_exits(int *o, const int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int v = a[i];
  if (v < 0) {
    o[i] = 0;
    return;
  }
  for (int k = 0; k < v; k++)
    o[i] += k;
}

__device__ __noinline__ int dev_helper(int x) { return x * x + 1; }

__global__ void calls(int *o, int n) {
  if (threadIdx.x >= n)
    return;
  o[threadIdx.x] = dev_helper(threadIdx.x);
}

__global__ void loopk(float *o, const float *a, int n) {
  float s = 0;
  for (int i = threadIdx.x; i < n; i += 32)
    s += a[i];
  o[threadIdx.x] = s;
}
