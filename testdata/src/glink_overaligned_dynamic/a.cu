// A dynamic extern __shared__ array beside a namespace-scope one aligned to
// 64 that only one kernel uses (laid out with that kernel's own data).
extern __shared__ char dyn0[];
__shared__ __align__(64) int vs0[64];
__global__ void k(int *o) {
  vs0[threadIdx.x % 64] = o[1];
  dyn0[threadIdx.x] = (char)o[2];
  __syncthreads();
  o[0] = vs0[(threadIdx.x + 1) % 64] + dyn0[threadIdx.x + 1];
}
