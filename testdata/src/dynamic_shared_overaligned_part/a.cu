// ptxas gives .nv_debug.shared and every kernel's section a 0x20-byte window
// beside a namespace-scope array aligned to 0x20 (k_data, k_none 0x34).
__shared__ __align__(32) float g[8];
extern __shared__ float dyn[];
__global__ void k_data(float *o) { __shared__ float st[5]; st[threadIdx.x % 5] = o[1]; o[2] = st[(threadIdx.x+1) % 5]; g[threadIdx.x % 8] = o[3]; dyn[threadIdx.x] = 2.0f; __syncthreads(); o[0] = dyn[1] + g[2]; }
__global__ void k_plain(float *o) { o[0] = o[1] * 2.0f; }
__global__ void k_none(float *o) { __shared__ float st[5]; st[threadIdx.x % 5] = o[1]; o[2] = st[(threadIdx.x+1) % 5]; __syncthreads(); o[0] = 1.0f; }
__global__ void k_dyn(float *o) { dyn[threadIdx.x] = 2.0f; __syncthreads(); o[0] = dyn[1]; }
