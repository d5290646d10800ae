// A template kernel with a function-scope __shared__ array (as CUB's
// kernels keep their temp_storage): each instantiation's array is a WEAK
// variable of .nv_debug.shared in every TU that instantiates the kernel.
template <int N> __global__ void k_tile(float *o) {
  __shared__ float tile[N];
  tile[threadIdx.x % N] = o[threadIdx.x];
  __syncthreads();
  o[threadIdx.x] = tile[(threadIdx.x + 1) % N];
}
