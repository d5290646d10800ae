// __threadfence_block() between shared-memory stores and loads: ptxas pads
// each block-scope MEMBAR with four never-executed loads.
__global__ void publish(const int *in, int *out, int n) {
  __shared__ int slot[256];
  int t = threadIdx.x;
  int v = t < n ? in[blockIdx.x * blockDim.x + t] : 0;
  slot[t] = v;
  __threadfence_block();
  int w = slot[t ^ 1];
  slot[t] = v + w;
  __threadfence_block();
  out[blockIdx.x * blockDim.x + t] = slot[t ^ 2];
}

__global__ void flag_then_data(int *data, volatile int *flag) {
  data[threadIdx.x] = threadIdx.x * 3;
  __threadfence_block();
  if (threadIdx.x == 0) *flag = 1;
}

// A block-scope fence beside a device-scope one (a CTA+GPU MEMBAR pair).
__global__ void block_and_device(int *data, int *flag) {
  __shared__ int s[128];
  s[threadIdx.x] = data[threadIdx.x];
  __threadfence_block();
  data[threadIdx.x + 128] = s[127 - threadIdx.x];
  __threadfence();
  if (threadIdx.x == 0) atomicAdd(flag, 1);
}

// A block-scope fence beside a system-scope one: both records read alike.
__global__ void block_and_system(int *data, int *flag) {
  __shared__ int s[128];
  s[threadIdx.x] = data[threadIdx.x];
  __threadfence_block();
  data[threadIdx.x + 128] = s[127 - threadIdx.x];
  __threadfence_system();
  if (threadIdx.x == 0) atomicAdd(flag, 1);
}
