// Device function updating a.cu's namespace-scope shared array (extern __shared__ with a size,
// an undefined shared symbol resolved at link time) and this TU's own file-scope __shared__.
extern __shared__ int s_counts[32];
__shared__ int s_counts_b[32];
extern __shared__ float dyn[];

__device__ void bump(int lane) {
  atomicAdd(&s_counts[lane], 1);
  atomicAdd(&s_counts_b[lane], 1);
  dyn[lane] += 1.0f;
}

__global__ void k_b(int *out) {
  s_counts_b[threadIdx.x & 31] = 0;
  __syncthreads();
  bump(threadIdx.x & 31);
  __syncthreads();
  out[threadIdx.x] = s_counts_b[threadIdx.x & 31] + (int)dyn[threadIdx.x & 31];
}
