// A -G input with a dynamic extern __shared__ array, linked without -g:
// .debug_info's DW_OP_addr of dyn becomes all ones plus ptxas's addend
// (0x3ff where the reserved window is 0x400; all ones on sm_75).
__global__ void kb(int *o) {
  extern __shared__ int dyn[];
  __shared__ int st[8];
  st[threadIdx.x & 7] = o[1];
  dyn[threadIdx.x] = o[0];
  __syncthreads();
  o[threadIdx.x] = dyn[threadIdx.x ^ 1] + st[threadIdx.x & 3];
}
__global__ void kb2(int *o) {
  extern __shared__ int dyn[];
  dyn[threadIdx.x] = o[0];
  __syncthreads();
  o[threadIdx.x] = dyn[threadIdx.x ^ 1];
}
