// Second stage: new users of the array (0x50 bytes, 4 bytes, none of their own).
extern __shared__ float dyn[];
__global__ void k_big(float *o) {
  __shared__ float big[20];
  big[threadIdx.x % 20] = o[threadIdx.x];
  __syncthreads();
  o[0] = big[3] + dyn[2];
}
__global__ void k_one(float *o) {
  __shared__ float one[1];
  one[0] = o[2];
  dyn[threadIdx.x] = 1.0f;
  __syncthreads();
  o[0] = one[0] + dyn[threadIdx.x + 1];
}
__global__ void k_dyn(float *o) {
  dyn[threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  o[0] = dyn[5];
}
