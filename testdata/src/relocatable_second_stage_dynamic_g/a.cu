// First stage (nvlink -r): kernels using a dynamic extern __shared__ array
// beside 0x24 and 0x14 bytes of their own data, and one using only the
// array. The -r output refers to their windows through undefined WEAK
// STV_INTERNAL `externsharedinstance` symbols of values 0x30, 0x20 and 0.
extern __shared__ float dyn[];
__global__ void k_nine(float *o) {
  __shared__ float st[9];
  st[threadIdx.x % 9] = o[1];
  dyn[threadIdx.x] = 2.0f;
  __syncthreads();
  o[0] = dyn[1] + st[threadIdx.x % 9 + 1];
}
__global__ void k_five(float *o) {
  __shared__ float st[5];
  st[threadIdx.x % 5] = o[1];
  dyn[threadIdx.x] = 2.0f;
  __syncthreads();
  o[0] = dyn[1] + st[threadIdx.x % 5 + 1];
}
__global__ void k_only(float *o) {
  dyn[threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  o[0] = dyn[3];
}
