// The kernels: cross-TU calls, variables defined elsewhere or nowhere.
extern __device__ int scale(int);
extern __device__ int counter;
extern __device__ int missing_fn(int);   // stays undefined in a relocatable link
extern __device__ int missing_var;
extern __constant__ int table[4];
template <typename T> __device__ T twice(T x) { return x + x; }

__global__ void k_main(int *out) {
  __shared__ int tile[64];
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[0] = scale(tile[1]) + counter + table[threadIdx.x & 3] + twice(out[2]);
  if (out[3])
    out[4] = missing_fn(out[5]) + missing_var;
}
