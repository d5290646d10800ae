__shared__ int X[32];
__shared__ char Z[9];
__global__ void k4(int *o) { X[threadIdx.x]=1; Z[threadIdx.x]=2; __syncthreads(); o[0]=X[1]+Z[2]; }
