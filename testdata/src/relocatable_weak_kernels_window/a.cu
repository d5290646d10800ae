// Template kernels (WEAK) beside a template device function's __shared__
// array (a WEAK variable of .nv_debug.shared aligned to 16) and a dynamic
// extern __shared__ array; two kernels use no shared memory: the shape of
// HeCBench's moe-align.
extern __shared__ int dyn[];

template <typename T> __global__ void empty_kernel() {}

template <typename T> __global__ void plain_kernel(T *p, int n) {
  if (threadIdx.x < n) p[threadIdx.x] = T(threadIdx.x);
}

template <typename T> __device__ __noinline__ T stage(T *p, int n) {
  __shared__ __align__(16) T staging[64];
  staging[threadIdx.x % 64] = p[threadIdx.x];
  dyn[threadIdx.x] = n;
  __syncthreads();
  return staging[(threadIdx.x + 1) % 64] + T(dyn[(threadIdx.x + 1) % 32]);
}

template <typename T> __global__ void user_kernel(T *p, int n) { p[threadIdx.x] = stage(p, n); }

template __global__ void empty_kernel<void>();
template __global__ void plain_kernel<int>(int *, int);
template __global__ void user_kernel<int>(int *, int);
