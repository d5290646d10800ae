__shared__ int X[32];
extern __shared__ int Y[32];
extern __shared__ float dyn[];
extern __device__ float fd(int i);
__global__ void kx(int *o) {
  Y[threadIdx.x] = 1; X[threadIdx.x] = 2;
  __syncthreads();
  o[0] = X[2] + Y[1];
}
__global__ void kd2(float *o) {
  __shared__ float big[100];
  big[threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  o[0] = fd(threadIdx.x) + big[threadIdx.x ^ 1] + dyn[3];
}
// W is used only by a function no kernel calls: the function is removed,
// but W still takes part in the layout (every kernel's shared section gets
// W's alignment, 16).
__shared__ float4 W[2];
__device__ __noinline__ float unused_w(int i) {
  W[i].x = i;
  __syncthreads();
  return W[i + 1].y;
}
