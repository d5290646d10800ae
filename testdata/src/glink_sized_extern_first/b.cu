// Its definition: ptxas gives .nv_debug.shared 0x80 bytes for its 0x40.
__shared__ __align__(64) int vs0[16];
__global__ void kb(int *o) { vs0[threadIdx.x % 16] = o[2]; __syncthreads(); o[0] = vs0[(threadIdx.x + 3) % 16]; }
