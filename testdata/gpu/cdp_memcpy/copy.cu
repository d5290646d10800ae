// Device-side asynchronous copies and fills (CDP2: libcudadevrt's
// __cudaCDP2MemcpyAsync, __cudaCDP2MemsetAsync and their 2D/3D forms).
__device__ cudaPitchedPtr pitched_ptr(char *p, size_t pitch, size_t rows) {
  cudaPitchedPtr r;
  r.ptr = p;
  r.pitch = pitch;
  r.xsize = 16;
  r.ysize = rows;
  return r;
}

__device__ cudaExtent extent(size_t rows) {
  cudaExtent e;
  e.width = 16;
  e.height = rows;
  e.depth = 1;
  return e;
}

__global__ void device_copies(int *dst, const int *src, int n, char *pitched, size_t pitch) {
  if (threadIdx.x != 0 || blockIdx.x != 0)
    return;
  cudaMemcpyAsync(dst, src, n * sizeof(int), cudaMemcpyDeviceToDevice, 0);
  cudaMemsetAsync(dst + n, 0x01, n * sizeof(int), 0);
  cudaMemset2DAsync(pitched, pitch, 0x02, 16, 4, 0);
  cudaMemcpy2DAsync(pitched + 4 * pitch, pitch, pitched, pitch, 16, 4, cudaMemcpyDeviceToDevice, 0);
  cudaMemcpy3DParms p = {};
  p.srcPtr = pitched_ptr(pitched, pitch, 8);
  p.dstPtr = pitched_ptr(pitched + 8 * pitch, pitch, 8);
  p.extent = extent(8);
  p.kind = cudaMemcpyDeviceToDevice;
  cudaMemcpy3DAsync(&p, 0);
  cudaMemset3DAsync(pitched_ptr(pitched + 16 * pitch, pitch, 4), 0x03, extent(4), 0);
}
