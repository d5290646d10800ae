// Namespace-scope __shared__ arrays used by different kernels: variables never used by the
// same kernel share offsets (A and B both at 0x80), C (largest, used with both) goes to 0.
__shared__ int A[8];
__shared__ int B[16];
__shared__ int C[32];
__global__ void k1(int *o) { A[threadIdx.x] = 1; __syncthreads(); o[0] = A[1]; }
__global__ void k2(int *o) { B[threadIdx.x] = 2; __syncthreads(); o[0] = B[1]; }
__global__ void k3(int *o) { C[threadIdx.x] = 2; A[threadIdx.x] = 3; __syncthreads(); o[0] = C[1] + A[2]; }
__global__ void k4(int *o) { B[threadIdx.x] = 2; C[threadIdx.x] = 3; __syncthreads(); o[0] = C[1] + B[2]; }
// One kernel using differently sized/aligned variables: align desc, then size asc.
__shared__ double D[3];
__shared__ char E[5];
__shared__ int F[24];
__global__ void k5(int *o) { D[threadIdx.x] = 1; E[threadIdx.x] = 2; F[threadIdx.x] = 3; __syncthreads(); o[0] = (int)D[1] + E[2] + F[3]; }
