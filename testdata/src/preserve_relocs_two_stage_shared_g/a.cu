// Namespace-scope __shared__ variables (one defined here, one extern from b.cu) and a
// namespace-scope extern __shared__ dynamic array, used by several kernels.
__shared__ int s_counts[32];
__shared__ float s_scale;
extern __shared__ float dyn[];
extern __device__ void bump(int lane);

__global__ void k_count(int *out) {
  if (threadIdx.x < 32) s_counts[threadIdx.x] = 0;
  __syncthreads();
  bump(threadIdx.x & 31);
  __syncthreads();
  if (threadIdx.x < 32) out[threadIdx.x] = s_counts[threadIdx.x];
}

__global__ void k_dyn(float *out, int n) {
  if (threadIdx.x == 0) s_scale = 2.0f;
  dyn[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = dyn[(threadIdx.x + 1) % n] * s_scale;
}

__global__ void k_both(float *out) {
  dyn[threadIdx.x] = (float)s_counts[threadIdx.x & 31];
  __syncthreads();
  out[threadIdx.x] = dyn[threadIdx.x ^ 1];
}
