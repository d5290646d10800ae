// A sized extern of a namespace-scope __shared__ array aligned to 64 (defined in b.cu).
extern __shared__ __align__(64) int vs0[16];
__global__ void ka(int *o) { vs0[threadIdx.x % 16] = o[1]; __syncthreads(); o[0] = vs0[(threadIdx.x + 1) % 16]; }
