// A is used by kz directly and by fb (b.cu) through ka; B only through fb.
__shared__ int A[32];
extern __device__ int fb(int);
__global__ void ka(int *o) { o[0] = fb(2); }
__global__ void kz(int *o) { A[threadIdx.x] = 1; __syncthreads(); o[1] = A[1]; }
