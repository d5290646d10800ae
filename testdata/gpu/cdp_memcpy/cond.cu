// A kernel deciding whether a graph's conditional IF node runs its body.
__global__ void set_condition(cudaGraphConditionalHandle handle, const int *flag) {
  cudaGraphSetConditional(handle, *flag != 0);
}

__global__ void body(int *counter) { atomicAdd(counter, 1); }
