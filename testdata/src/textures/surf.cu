// Surface objects: surf2Dwrite / surf2Dread in a device function and a kernel.
#include <cuda_runtime.h>

__device__ void store_texel(cudaSurfaceObject_t s, int x, int y, float v) {
  surf2Dwrite(v, s, x * (int)sizeof(float), y);
}

__global__ void surf_scale(cudaSurfaceObject_t s, cudaTextureObject_t lut, float k) {
  int x = threadIdx.x, y = blockIdx.x;
  float v;
  surf2Dread(&v, s, x * (int)sizeof(float), y);
  v = v * k + tex1D<float>(lut, v);
  surf2Dwrite(v, s, x * (int)sizeof(float), y, cudaBoundaryModeClamp);
}
