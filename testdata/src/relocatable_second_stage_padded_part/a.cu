// First stage (nvlink -r): a TU-local __shared__ array, a namespace-scope one
// aligned to 64 and a sized extern of another defined in b.cu.
static __shared__ int local_sh[16];
__shared__ __align__(64) int vs0[64];
extern __shared__ __align__(64) int vs1[4];
__global__ void k_a(int *o) {
  local_sh[threadIdx.x % 16] = o[1];
  vs0[threadIdx.x % 64] = o[2];
  vs1[threadIdx.x % 4] = o[3];
  __syncthreads();
  o[0] = local_sh[(threadIdx.x + 1) % 16] + vs0[(threadIdx.x + 1) % 64] + vs1[(threadIdx.x + 1) % 4];
}
