// -G, linked with nvlink -g: a kernel calling device functions of two other
// TUs, a weak (template) function defined in two TUs, a kernel's own
// __shared__ array, a dead function.
template <typename T> __device__ T twice(T v) { return v + v; }
__device__ int scale(int v);          // lib.cu
__device__ float blend(float a, int b); // util.cu

__global__ void kmain(int *out, float *fout) {
  __shared__ int tile[32];
  int t = threadIdx.x;
  tile[t & 31] = scale(t);
  __syncthreads();
  int local = tile[(t + 1) & 31];
  out[t] = twice(local);
  fout[t] = blend(1.5f, local);
}

__device__ int never_called_main(int x) { return x * 7 - 1; }
