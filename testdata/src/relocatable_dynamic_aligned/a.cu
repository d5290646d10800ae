// A float4 namespace-scope array used only by a function no kernel calls
// (placed program-wide, alignment 16) and a dynamic extern __shared__
// array: nvlink gives every kernel a shared section, k_plain too.
__shared__ float4 W[2];
__device__ __noinline__ float unused_w(int i) {
  W[i].x = i;
  __syncthreads();
  return W[i + 1].y;
}
__global__ void k_plain(int *o) { o[0] = 1; }
