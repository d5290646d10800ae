__device__ int gi = 42;
__align__(256) __device__ char gb[5];
__global__ void k(int* out, int in){ __shared__ char s[63]; s[threadIdx.x%63]=in; __syncthreads(); gb[in]=s[in%63]; out[threadIdx.x] = gi; }
