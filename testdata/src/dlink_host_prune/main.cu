extern __device__ int shared_helper(int x);
__global__ void used_kernel(int *p) { p[threadIdx.x] = shared_helper(threadIdx.x); }
int main() {
  int *d = nullptr;
  cudaMalloc(&d, 32 * sizeof(int));
  used_kernel<<<1, 32>>>(d);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
