// Bindless textures and surfaces: tex1Dfetch on linear memory, tex2D on a cudaArray,
// surf2Dwrite into another array; the fetch/store helpers live in sample.cu.
#include <cstdio>
__device__ float fetch_linear(cudaTextureObject_t tex, int i);
__device__ void store_surface(cudaSurfaceObject_t surf, int x, int y, float v);
__global__ void k_tex(cudaTextureObject_t lin, cudaTextureObject_t arr, cudaSurfaceObject_t surf) {
  int x = threadIdx.x, y = blockIdx.x;
  float a = fetch_linear(lin, y * 16 + x);
  float b = tex2D<float>(arr, x + 0.5f, y + 0.5f);
  store_surface(surf, x, y, a + 2 * b);
}
int main() {
  const int W = 16, H = 8;
  float host[W * H];
  for (int i = 0; i < W * H; ++i) host[i] = (float)i;
  float *lin; cudaMalloc(&lin, sizeof host);
  cudaMemcpy(lin, host, sizeof host, cudaMemcpyHostToDevice);
  cudaResourceDesc rl = {}; rl.resType = cudaResourceTypeLinear; rl.res.linear.devPtr = lin;
  rl.res.linear.desc = cudaCreateChannelDesc<float>(); rl.res.linear.sizeInBytes = sizeof host;
  cudaTextureDesc td = {}; td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tlin; cudaCreateTextureObject(&tlin, &rl, &td, nullptr);
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t in_arr, out_arr;
  cudaMallocArray(&in_arr, &cd, W, H);
  cudaMallocArray(&out_arr, &cd, W, H, cudaArraySurfaceLoadStore);
  cudaMemcpy2DToArray(in_arr, 0, 0, host, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice);
  cudaResourceDesc ra = {}; ra.resType = cudaResourceTypeArray; ra.res.array.array = in_arr;
  cudaTextureObject_t tarr; cudaCreateTextureObject(&tarr, &ra, &td, nullptr);
  cudaResourceDesc rs = {}; rs.resType = cudaResourceTypeArray; rs.res.array.array = out_arr;
  cudaSurfaceObject_t surf; cudaCreateSurfaceObject(&surf, &rs);
  k_tex<<<H, W>>>(tlin, tarr, surf);
  float out[W * H];
  cudaMemcpy2DFromArray(out, W * sizeof(float), out_arr, 0, 0, W * sizeof(float), H, cudaMemcpyDeviceToHost);
  bool ok = cudaDeviceSynchronize() == cudaSuccess;
  for (int i = 0; i < W * H; ++i) ok &= out[i] == 3.0f * i;
  printf("textures: %s out[1]=%.1f out[127]=%.1f\n", ok ? "PASS" : "FAIL", out[1], out[127]);
  return ok ? 0 : 1;
}
