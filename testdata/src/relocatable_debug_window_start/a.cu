// nvlink -r -g: a kernel without shared data of its own, grown to 0x10 by a
// device function it shares with a kernel of 4 bytes, takes a window of
// 0x10 past that start (0x20), not past its (empty) data.
extern __shared__ float dyn[];
__device__ __noinline__ float fd(int i) {
  dyn[i] += 1.0f;
  __syncthreads();
  return dyn[i + 1];
}
__global__ void k_data(float *o) {
  __shared__ float st[1];
  st[0] = o[2];
  dyn[threadIdx.x] = 2.0f;
  __syncthreads();
  o[0] = fd(threadIdx.x) + st[0];
}
__global__ void k_none(float *o) {
  dyn[threadIdx.x] = 3.0f;
  __syncthreads();
  o[0] = fd(threadIdx.x);
}
