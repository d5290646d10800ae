// A kernel calling a device function of another TU; built for one arch, linked for another.
extern __device__ float scale(float x, int k);
__global__ void kern(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = scale(in[i], i & 7);
}
