// First stage: a kernel using only a dynamic extern __shared__ array
// (nvlink -r pads its section to 0x10 and defines the array), one using
// the array beside its own data, and a device function using it.
extern __shared__ float dyn[];
__global__ void k_only_dyn(float *o) {
  dyn[threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  o[0] = dyn[3];
}
__global__ void k_static_dyn(float *o) {
  __shared__ float st[5];
  st[threadIdx.x % 5] = 1.0f;
  dyn[threadIdx.x] = 2.0f;
  __syncthreads();
  o[0] = dyn[1] + st[2];
}
__device__ __noinline__ float fd(int i) {
  dyn[i] += 1.0f;
  __syncthreads();
  return dyn[i + 1];
}
__global__ void k_through_fd(float *o) { o[0] = fd(threadIdx.x); }
