__device__ int g_off[4] = {1,2,3,4};
__device__ unsigned long long g_total;
__managed__ int m = 7;
__global__ void k(int *o){ __shared__ int s[64]; s[threadIdx.x]=threadIdx.x; __syncthreads(); o[1]=s[threadIdx.x^1]; o[0]=g_off[threadIdx.x&3] + (int)g_total + m; atomicAdd(&g_total,1); }
