__global__ void k(int* out, int in){ __shared__ double ss[6145]; ss[threadIdx.x % 6145] = in; __syncthreads(); out[threadIdx.x] = ss[(threadIdx.x+1) % 6145]; }
