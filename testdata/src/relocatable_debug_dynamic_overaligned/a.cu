// A 32-aligned namespace-scope array shared by two kernels (placed
// program-wide) and a dynamic extern __shared__ array used by a third:
// every kernel's section takes alignment 32, and the empty ones (k_dyn's
// too) are not written where the reserved window is not content.
struct __align__(32) Block { char a[32]; };
__shared__ Block B[2];
__global__ void k_b1(int *o) {
  B[threadIdx.x].a[0] = 1;
  __syncthreads();
  o[0] = B[1].a[1];
}
__global__ void k_b2(int *o) {
  B[threadIdx.x].a[0] = 2;
  __syncthreads();
  o[0] = B[1].a[2];
}
extern __shared__ int dyn[];
__global__ void k_dyn(int *o) {
  dyn[threadIdx.x] = 1;
  __syncthreads();
  o[0] = dyn[1];
}
__global__ void k_plain(int *o) { o[0] = 3; }
