extern __device__ int hist[16];
extern __device__ unsigned long long total;
extern __device__ float fsum;
extern __device__ double dsum;
extern __device__ void spin_lock();
extern __device__ void spin_unlock();

__global__ void histo(const int *in, int *maxv) {
  __shared__ int local[16];
  if (threadIdx.x < 16) local[threadIdx.x] = 0;
  __syncthreads();
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  atomicAdd(&local[v & 15], 1);
  atomicMax(maxv, v);
  atomicMin(maxv + 1, v);
  atomicOr(maxv + 2, v);
  atomicAdd(&total, 1ull);
  atomicAdd(&fsum, (float)v);
  atomicAdd(&dsum, (double)v);
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
  if (threadIdx.x == 0) { spin_lock(); maxv[3] += 1; spin_unlock(); }
}
