__shared__ int U[4];            // unused
__shared__ int F[8];            // via a device function, one kernel
__shared__ short G[6];          // via a device function, two kernels
__shared__ double H[2];         // two kernels directly
extern __shared__ int X[32];    // sized extern, defined in c.cu
__device__ __noinline__ int f1(int i) { F[i] = i; return F[i+1]; }
__device__ __noinline__ int g1(int i) { __shared__ int own[5]; own[i]=i; G[i] = i; return G[i+1]+own[i+1]; }
__global__ void k1(int *o) { o[0] = f1(threadIdx.x) + g1(threadIdx.x); H[threadIdx.x]=1; X[threadIdx.x]=3; __syncthreads(); o[1]=H[1]+X[2]; }
__global__ void k2(int *o) { o[0] = g1(threadIdx.x); H[threadIdx.x]=2; __syncthreads(); o[1]=H[0]; }
__global__ void k3(int *o) { __shared__ char c[7]; c[threadIdx.x]=1; __syncthreads(); o[0]=c[3]; }
