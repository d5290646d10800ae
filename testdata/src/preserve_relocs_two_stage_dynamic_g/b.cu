// Second stage: another user of the array and of the first stage's function.
extern __shared__ float dyn[];
extern __device__ float fd(int i);
__global__ void k_second(float *o) {
  __shared__ float big[20];
  big[threadIdx.x % 20] = o[threadIdx.x];
  __syncthreads();
  o[0] = fd(threadIdx.x) + big[3] + dyn[2];
}
