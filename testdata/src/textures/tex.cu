// Bindless texture objects: tex1Dfetch and tex2D; calls a surface helper in surf.cu.
#include <cuda_runtime.h>

extern __device__ void store_texel(cudaSurfaceObject_t s, int x, int y, float v);

__global__ void fetch1d(cudaTextureObject_t t, float *out) {
  out[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x) + tex1Dfetch<float>(t, threadIdx.x + 1);
}

__global__ void copy2d(cudaTextureObject_t t, cudaSurfaceObject_t s, int w) {
  int x = threadIdx.x, y = blockIdx.x;
  float v = tex2D<float>(t, x + 0.5f, y + 0.5f);
  store_texel(s, x, y, v * 2.0f);
}
