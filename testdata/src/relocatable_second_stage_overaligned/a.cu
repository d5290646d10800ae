// First stage (nvlink -r): a namespace-scope __shared__ array aligned to 0x20
// beside a dynamic extern __shared__ array, kernels of 0x14 and 0x24 bytes.
__shared__ __align__(32) float g[8];
extern __shared__ float dyn[];
__global__ void k1(float *o) { __shared__ float st[5]; st[threadIdx.x % 5] = o[1]; o[2] = st[(threadIdx.x+1) % 5]; g[threadIdx.x % 8] = o[3]; dyn[threadIdx.x] = 2.0f; __syncthreads(); o[0] = dyn[1] + (float)g[(threadIdx.x + 1) % 8]; }
__global__ void k2(float *o) { __shared__ float st[9]; st[threadIdx.x % 9] = o[1]; o[2] = st[(threadIdx.x+1) % 9]; dyn[threadIdx.x] = 2.0f; __syncthreads(); o[0] = dyn[1]; }
