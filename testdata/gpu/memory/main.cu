// Memory layout across TUs: __constant__, __device__ (initialised and not), __managed__,
// static __shared__ in two kernels, and dynamic extern __shared__.
#include <cstdio>
extern __constant__ float c_weights[16];
extern __device__ int g_offsets[4];
extern __device__ unsigned long long g_total;
extern __managed__ int m_flag;
extern __device__ int scale(int v);

__global__ void k_static(int *out) {
  __shared__ int tile[64];
  __shared__ double acc[8];
  int t = threadIdx.x;
  tile[t] = scale(t) + g_offsets[t & 3];
  if (t < 8) acc[t] = c_weights[t] * 0.5;
  __syncthreads();
  out[t] = tile[63 - t] + (int)acc[t & 7];
  atomicAdd(&g_total, (unsigned long long)out[t]);
}

__global__ void k_dynamic(float *out, int n) {
  extern __shared__ float buf[];
  int t = threadIdx.x;
  buf[t] = c_weights[t % 16] + t;
  __syncthreads();
  float s = 0;
  for (int i = 0; i < n; ++i) s += buf[i];
  out[t] = s + buf[(t + 1) % n];
}

int main() {
  int *d_out; float *d_f;
  cudaMalloc(&d_out, 64 * sizeof(int));
  cudaMalloc(&d_f, 128 * sizeof(float));
  k_static<<<1, 64>>>(d_out);
  k_dynamic<<<1, 128, 128 * sizeof(float)>>>(d_f, 128);
  int h_out[64]; float h_f[128]; unsigned long long total = 0;
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_f, d_f, sizeof h_f, cudaMemcpyDeviceToHost);
  cudaMemcpyFromSymbol(&total, g_total, sizeof total);
  cudaError_t err = cudaDeviceSynchronize();
  const float w[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  const int off[4] = {100, 200, 300, 400};
  bool ok = err == cudaSuccess;
  unsigned long long expect_total = 0;
  for (int t = 0; t < 64; ++t) {
    int src = 63 - t;
    int e = src * 7 + off[src & 3] + (int)(w[t & 7] * 0.5);
    ok &= h_out[t] == e;
    expect_total += e;
  }
  ok &= total == expect_total;
  float s = 0;
  for (int i = 0; i < 128; ++i) s += w[i % 16] + i;
  for (int t = 0; t < 128; ++t) ok &= h_f[t] == s + w[((t + 1) % 128) % 16] + (t + 1) % 128;
  printf("memory: %s total=%llu out[5]=%d f[3]=%.1f managed=%d\n", ok ? "PASS" : "FAIL", total,
         h_out[5], h_f[3], m_flag);
  return ok ? 0 : 1;
}
