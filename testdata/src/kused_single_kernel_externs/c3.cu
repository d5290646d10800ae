// Under -kernels-used=k0, k0 is the only kernel: its EXTERNS collects the
// entries of every function of the output (fl, address-taken, launches kz),
// in definition order, and goes to the end, reversed, after the added
// NUM_BARRIERS.
__device__ __noinline__ void fb(int *o) { __syncthreads(); o[0] = 5; }
__global__ void kc(int *o) { fb(o); }
__global__ void kz(int *o) { o[1] = 1; }
__device__ __noinline__ void fl(int *o) { kz<<<1, 1>>>(o); }
__device__ void *ptr;
__device__ void (*fp)(int *);
__global__ void k0(int *o) { ptr = (void *)kc; fp = fl; o[0] = 3; }
__global__ void k1(int *o) { o[0] = 4; }
