// Namespace-scope __shared__ arrays of two TUs, a device function's own
// __shared__ array, a sized extern defined in b.cu and one defined nowhere.
__shared__ int x[5];
extern __shared__ char y[3];
extern __shared__ int never[32];
__device__ __noinline__ int f(int i) {
  __shared__ float own[7];
  own[i % 7] = i;
  __syncthreads();
  return (int)own[(i + 1) % 7] + never[i % 32];
}
__global__ void k(int *o) {
  x[threadIdx.x % 5] = 1;
  y[threadIdx.x % 3] = 2;
  __syncthreads();
  o[threadIdx.x] = x[(threadIdx.x + 1) % 5] + y[(threadIdx.x + 1) % 3] + f(threadIdx.x);
}
