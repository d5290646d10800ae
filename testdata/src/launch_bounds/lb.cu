extern __device__ float work(float x, int i);

__global__ void __launch_bounds__(128) lb128(float *a) {
  a[blockIdx.x * 128 + threadIdx.x] = work(a[threadIdx.x], threadIdx.x);
}

__global__ void __launch_bounds__(256, 4) lb256x4(float *a) {
  a[blockIdx.x * 256 + threadIdx.x] = work(a[threadIdx.x], -(int)threadIdx.x);
}

__global__ void __launch_bounds__(1024, 1) lb1024(float *a) { a[threadIdx.x] *= 2.f; }
