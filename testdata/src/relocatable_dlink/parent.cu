// Device-side launches of a kernel from another TU and of a local one.
extern __global__ void child(int *data, int n);

__global__ void local_child(int *data, int n) {
  int i = threadIdx.x;
  if (i < n) data[i] *= 2;
}

__global__ void parent(int *data, int n) {
  if (threadIdx.x == 0) {
    child<<<1, n>>>(data, n);
    local_child<<<1, n, 0, cudaStreamTailLaunch>>>(data, n);
  }
}
