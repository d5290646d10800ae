// A sized extern __shared__ array that no input defines: an undefined
// reference (only an unsized, dynamic, declaration needs no definition).
extern __shared__ int s[16];
__global__ void k3(int *p) { s[threadIdx.x] = p[0]; __syncthreads(); p[1] = s[2]; }
