// Dynamic parallelism: a kernel launching child kernels (one defined in child.cu) and
// cudaDeviceSynchronize-free tail launch; needs -lcudadevrt at link time.
extern __global__ void child(int *data, int n);

__global__ void local_child(int *data) { data[threadIdx.x] *= 2; }

__global__ void parent(int *data, int n) {
  if (threadIdx.x == 0) {
    child<<<1, n>>>(data, n);
    local_child<<<1, n, 0, cudaStreamTailLaunch>>>(data);
  }
}
