// -r of kernels using dynamic extern __shared__ arrays: alone, beside their
// own static data (sizes below and above 16 bytes), through a device
// function only, two arrays in one kernel, and a kernel without any.
extern __shared__ int dyn[];
extern __shared__ float dyn2[];
__device__ int gv;
__device__ __noinline__ int fd(int i) {
  dyn[i] += 1;
  __syncthreads();
  return dyn[i + 1];
}
__global__ void k_only(int *o) {
  dyn[threadIdx.x] = 1;
  __syncthreads();
  o[0] = dyn[1] + gv;
}
__global__ void k_small(int *o) {
  __shared__ char a[5];
  a[threadIdx.x % 5] = 1;
  dyn[threadIdx.x] = 2;
  __syncthreads();
  o[0] = dyn[1] + a[2];
}
__global__ void k_large(int *o) {
  __shared__ double d[3];
  __shared__ char c[9];
  d[threadIdx.x % 3] = 1;
  c[threadIdx.x % 9] = 2;
  dyn[threadIdx.x] = 3;
  __syncthreads();
  o[0] = dyn[1] + (int)d[2] + c[4];
}
__global__ void k_through(int *o) { o[0] = fd(threadIdx.x); }
__global__ void k_two(int *o) {
  dyn2[threadIdx.x] = 1.0f;
  dyn[threadIdx.x] = 2;
  __syncthreads();
  o[0] = (int)dyn2[1] + dyn[2];
}
__global__ void k_plain(int *o) { o[0] = 7; }
