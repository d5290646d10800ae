// Second stage: defines vs1 (16 bytes aligned to 64: ptxas pads its
// .nv_debug.shared to 0x50), uses vs0.
__shared__ __align__(64) int vs1[4];
extern __shared__ __align__(64) int vs0[64];
__global__ void k_b(int *o) {
  vs1[threadIdx.x % 4] = o[1];
  vs0[threadIdx.x % 64] = o[2];
  __syncthreads();
  o[0] = vs1[(threadIdx.x + 1) % 4] + vs0[(threadIdx.x + 1) % 64];
}
