// `static __global__` kernels (local functions, named __nv_static_...)
// using a dynamic extern __shared__ array, directly and through a device
// function, beside a kernel of their own static shared data.
extern __shared__ float dyn[];
__device__ __noinline__ float via(int i) { return dyn[i]; }
__global__ static void k_static_dyn(float *o) {
  dyn[threadIdx.x] = o[threadIdx.x];
  __syncthreads();
  o[0] = dyn[1];
}
__global__ static void k_static_via(float *o) {
  __shared__ float st[4];
  st[threadIdx.x % 4] = 1.0f;
  __syncthreads();
  o[0] = via(threadIdx.x) + st[1];
}
void launch_s(float *o) {
  k_static_dyn<<<1, 32, 128>>>(o);
  k_static_via<<<1, 32, 128>>>(o);
}
