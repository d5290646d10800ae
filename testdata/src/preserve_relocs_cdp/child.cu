__global__ void child(int *data, int n) {
  if (threadIdx.x < n) data[threadIdx.x] += 1;
}
