// The host launches only k0; kp (pruned) launches kc from the device.
__device__ __noinline__ int f(int x) { return x * 3 + 1; }
__global__ void kc(int *o) { o[threadIdx.x] = f(threadIdx.x); }
__global__ void kp(int *o) { kc<<<1, 32>>>(o); }
__global__ void k0(int *o) { o[0] = 7; }
void launch(int *o) { k0<<<1, 1>>>(o); }
