// Kernels with shared memory, constants, a barrier and a call into another TU.
extern __device__ float scale(float x, int n);
__constant__ float c_coef[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__device__ int g_hits;
__global__ void k_shared(float *out) {
  __shared__ float buf[128];
  buf[threadIdx.x] = c_coef[threadIdx.x & 7];
  __syncthreads();
  out[threadIdx.x] = scale(buf[127 - threadIdx.x], threadIdx.x);
  atomicAdd(&g_hits, 1);
}
__global__ void k_plain(int *o) { o[threadIdx.x] = threadIdx.x * 3; }
