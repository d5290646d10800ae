__device__ float g_acc[16];
__global__ void kwhole(const float *in, float *out, int n) {
  __shared__ float tile[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.f;
  __syncthreads();
  out[i] = tile[127 - threadIdx.x] + g_acc[i & 15];
}
