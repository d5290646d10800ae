// kc and kd are kernels kept by -kernels-used only because k0/k1 take their
// address; fb is an address-taken device function using a barrier.
__global__ void kc(int *o) { o[0] = 1; }
__global__ void kd(int *o) { __syncthreads(); o[0] = 2; }
__device__ __noinline__ void fb(int *o) { __syncthreads(); o[0] = 5; }
__device__ void *ptr;
__device__ void *ptr2;
__device__ void (*fp)(int *);
__global__ void k0(int *o) { ptr = (void *)kc; o[0] = 3; }
__global__ void k1(int *o) { ptr2 = (void *)kd; o[0] = 4; }
__global__ void k2(int *o) { fp = fb; o[0] = 4; }
__global__ void k3(int *o) { o[0] = 4; }
