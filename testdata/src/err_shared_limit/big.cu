__global__ void k(int* out, int in){ __shared__ double ss[30000]; ss[threadIdx.x % 30000] = in; __syncthreads(); out[threadIdx.x] = ss[(threadIdx.x+1) % 30000]; }
