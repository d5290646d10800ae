// Defines the sized extern of a.cu, and a __shared__ array of its own.
__shared__ char y[3];
__shared__ double z[2];
__global__ void k3(int *o) {
  y[threadIdx.x % 3] = 1;
  z[threadIdx.x % 2] = 2.0;
  __syncthreads();
  o[threadIdx.x] = y[(threadIdx.x + 1) % 3] + (int)z[(threadIdx.x + 1) % 2];
}
