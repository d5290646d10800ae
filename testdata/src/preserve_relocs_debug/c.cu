// Same-size variables of one kernel from two TUs (P here, Q in d.cu through fq).
__shared__ int P[32];
extern __device__ int fq(int);
__global__ void kp(int *o) { P[threadIdx.x] = 1; __syncthreads(); o[0] = P[1] + fq(2); }
