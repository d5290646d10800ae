#include <cuda_runtime.h>
__constant__ int c_tab[32] = {1,2,3};
__device__ int g_init[8] = {5,6};
__device__ int g_zero[8];
__global__ void ktex(cudaTextureObject_t t, float *out) {
  out[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x) + c_tab[threadIdx.x & 31] + g_init[threadIdx.x & 7];
  g_zero[threadIdx.x & 7] = 1;
}
