// A -r output (first stage) defines the dynamic array it used (a GLOBAL
// variable of .nv_debug.shared, size 0).
extern __shared__ float dyn[];
__global__ void k_five(float *o) {
  __shared__ float st[5];
  st[threadIdx.x % 5] = o[1];
  dyn[threadIdx.x] = 2.0f;
  __syncthreads();
  o[0] = dyn[1] + st[threadIdx.x % 5 + 1];
}
