__device__ int only_for_unused(int x) { return x * x + 3; }
__global__ void unused_kernel(int *p) {
  __shared__ int s[32];
  s[threadIdx.x] = only_for_unused(threadIdx.x);
  __syncthreads();
  p[threadIdx.x] = s[31 - threadIdx.x];
}
__device__ int shared_helper(int x) { return x + 11; }
