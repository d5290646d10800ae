// Device-side asynchronous copies and fills (CDP2: libcudadevrt's
// __cudaCDP2MemcpyAsync, __cudaCDP2MemsetAsync and their 2D/3D forms).
// Every operation writes its own region and reads only what the host wrote
// before the launch, so the result does not depend on the order in which the
// device runtime runs them. status[k] receives operation k's return code.
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

__global__ void device_copies(int *dst, const int *src, int n, char *pitched, size_t pitch,
                              int *status) {
  if (threadIdx.x != 0 || blockIdx.x != 0)
    return;
  status[0] = cudaMemcpyAsync(dst, src, n * sizeof(int), cudaMemcpyDeviceToDevice, 0);
  status[1] = cudaMemsetAsync(dst + n, 0x01, n * sizeof(int), 0);
  status[2] = cudaMemset2DAsync(pitched + 4 * pitch, pitch, 0x02, 16, 4, 0);
  status[3] = cudaMemcpy2DAsync(pitched + 8 * pitch, pitch, pitched, pitch, 16, 4,
                                cudaMemcpyDeviceToDevice, 0);
  cudaMemcpy3DParms p = {};
  p.srcPtr = pitched_ptr(pitched, pitch, 4);
  p.dstPtr = pitched_ptr(pitched + 12 * pitch, pitch, 4);
  p.extent = extent(4);
  p.kind = cudaMemcpyDeviceToDevice;
  status[4] = cudaMemcpy3DAsync(&p, 0);
  status[5] = cudaMemset3DAsync(pitched_ptr(pitched + 16 * pitch, pitch, 4), 0x03, extent(4), 0);
}
