// Namespace-scope shared arrays used by several kernels (global_shared / shared_order
// layouts): the kernels check that no two variables they use overlap.
#include <cstdio>
__shared__ int s_a[32];
__shared__ int s_b[32];
extern __shared__ int s_c[32];   // defined in b.cu
extern __shared__ float dyn[];
extern __device__ int touch_c(int lane, int v);

__global__ void k_ab(int *out) {
  int t = threadIdx.x;
  s_a[t] = 1000 + t;
  s_b[t] = 2000 + t;
  __syncthreads();
  out[t] = s_a[t] + s_b[31 - t];
}

__global__ void k_ac(int *out) {
  int t = threadIdx.x;
  s_a[t] = 3000 + t;
  int c = touch_c(t, 4000 + t);
  dyn[t] = 0.5f * t;
  __syncthreads();
  out[t] = s_a[t] + c + (int)(dyn[31 - t] * 2.0f) + s_c[(t + 1) & 31];
}

__global__ void k_bc(int *out) {
  int t = threadIdx.x;
  s_b[t] = 5000 + t;
  int c = touch_c(t, 6000 + t);
  __syncthreads();
  out[t] = s_b[t] + c + s_c[(t + 3) & 31];
}

int main() {
  int *d;
  cudaMalloc(&d, 3 * 32 * sizeof(int));
  k_ab<<<1, 32>>>(d);
  k_ac<<<1, 32, 32 * sizeof(float)>>>(d + 32);
  k_bc<<<1, 32>>>(d + 64);
  int h[96];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  bool ok = cudaDeviceSynchronize() == cudaSuccess;
  for (int t = 0; t < 32; ++t) {
    ok &= h[t] == 1000 + t + 2000 + 31 - t;
    ok &= h[32 + t] == 3000 + t + (4000 + t) * 2 + (31 - t) + 4000 + ((t + 1) & 31);
    ok &= h[64 + t] == 5000 + t + (6000 + t) * 2 + 6000 + ((t + 3) & 31);
  }
  printf("shared: %s %d %d %d\n", ok ? "PASS" : "FAIL", h[5], h[37], h[69]);
  return ok ? 0 : 1;
}
