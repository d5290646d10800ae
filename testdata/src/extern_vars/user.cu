extern __device__ int g_count;
extern __device__ float g_weights[16];
extern __device__ int g_init[4];
extern __device__ double g_scale;

__global__ void consume(float *out) {
  int i = threadIdx.x & 15;
  out[threadIdx.x] = g_weights[i] * (float)g_scale + g_init[i & 3];
  atomicAdd(&g_count, 1);
}
