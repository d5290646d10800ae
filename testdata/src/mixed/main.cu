extern __constant__ float k_weights[16];
extern __device__ unsigned long long g_hits;
extern __device__ float normalize(float x, float lo, float hi);
extern __device__ void report(int id, float v);

__global__ void __launch_bounds__(256) stage1(const float *in, float *out, float lo, float hi) {
  __shared__ float tile[256];
  extern __shared__ float extra[];
  tile[threadIdx.x] = normalize(in[blockIdx.x * 256 + threadIdx.x], lo, hi) * k_weights[threadIdx.x & 15];
  extra[threadIdx.x] = tile[255 - threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = tile[threadIdx.x] + extra[threadIdx.x];
  atomicAdd(&g_hits, 1ull);
  if (threadIdx.x == 0 && blockIdx.x == 0) report(0, out[0]);
}
