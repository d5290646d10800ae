extern __shared__ int s[];
__global__ void k(int *o) { s[o[2]] = 1; __syncthreads(); o[0] = s[o[1]]; }
