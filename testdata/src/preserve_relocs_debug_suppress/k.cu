__device__ int pick(int v) { return v * 3 + 1; }
__device__ int dead_pick(int v) { return v - 3; }
__global__ void ktile(int *p) {
  __shared__ int tile[16];
  tile[threadIdx.x & 15] = pick(threadIdx.x);
  __syncthreads();
  p[threadIdx.x] = tile[(threadIdx.x + 1) & 15];
}
