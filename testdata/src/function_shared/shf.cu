__device__ __noinline__ int shf(int x){ __shared__ int sbuf[16]; sbuf[threadIdx.x % 16] = x; __syncthreads(); return sbuf[(x+1) % 16]; }
__global__ void k1(int *o){ __shared__ int a[8]; a[threadIdx.x%8]=1; __syncthreads(); o[0] = shf(o[1]) + a[o[2]%8]; }
__global__ void k2(int *o){ o[0] = shf(o[1]); }
