extern __device__ int alpha(int);
extern __device__ int beta(int, int);

__global__ void kmain(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = alpha(i) + beta(i, out[i]);
}
