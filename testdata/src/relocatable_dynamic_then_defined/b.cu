// The definition after the dynamic declaration: nvlink keeps s dynamic and
// resolves every reference to it to all ones (no .nv.shared.<kernel>).
__shared__ int s[16];
__global__ void k2(int *p) { s[threadIdx.x] = p[0]; __syncthreads(); p[1] = s[1]; }
