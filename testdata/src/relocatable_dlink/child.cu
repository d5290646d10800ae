__global__ void child(int *data, int n) {
  int i = threadIdx.x;
  if (i < n) data[i] += 1;
}
