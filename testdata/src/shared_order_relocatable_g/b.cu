// X is defined in c.cu, after this sized declaration: it counts from its
// definition, so Y comes first in the size sort's input.
extern __shared__ int X[32];
__shared__ int Y[32];
// The three largest arrays: U is placed first, B (no kernel in common with
// U) at 0 beside it, and A (which shares kernels with B) at U's end 0x200:
// B's end 0x180 lies inside U, so it is no candidate.
__shared__ double U[64];
__shared__ char A[320];
__shared__ char B[384];
extern __shared__ float dyn[];
__global__ void kxy(int *o) {
  X[threadIdx.x] = 1; Y[threadIdx.x] = 2;
  __syncthreads();
  o[0] = X[1] + Y[2];
}
__global__ void ku1(int *o) { U[threadIdx.x] = 1; __syncthreads(); o[0] = (int)U[1]; }
__global__ void ku2(int *o) { U[threadIdx.x] = 2; __syncthreads(); o[0] = (int)U[1]; }
__global__ void kab1(int *o) {
  A[threadIdx.x] = 1; B[threadIdx.x] = 2;
  __syncthreads();
  o[0] = A[1] + B[2];
}
__global__ void kab2(int *o) {
  B[threadIdx.x] = 1; A[threadIdx.x] = 2;
  __syncthreads();
  o[0] = A[2] + B[1];
}
// The dynamic array through a device function: one address in fd's code,
// so every kernel reaching fd grows to the largest static part among them.
__device__ __noinline__ float fd(int i) {
  dyn[i] += 1.0f;
  __syncthreads();
  return dyn[i + 1];
}
__global__ void kd1(float *o) { o[0] = fd(threadIdx.x) + (float)Y[threadIdx.x & 31]; }
