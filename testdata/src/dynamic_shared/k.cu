extern __device__ float smem_sum(int n);

__global__ void dyn_float(const float *in, float *out) {
  extern __shared__ float sbuf[];
  sbuf[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = smem_sum(blockDim.x);
}

__global__ void dyn_mixed(int *out) {
  extern __shared__ double dbuf[];
  __shared__ int fixed[32];
  fixed[threadIdx.x & 31] = threadIdx.x;
  dbuf[threadIdx.x] = threadIdx.x * 0.5;
  __syncthreads();
  out[threadIdx.x] = fixed[(threadIdx.x + 1) & 31] + (int)dbuf[blockDim.x - 1 - threadIdx.x];
}
