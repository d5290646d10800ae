extern __device__ int live_fn(int);
__device__ __noinline__ int local_dead(int x) { return x * 1234567; }  // never called
__device__ int dead_var[32];                                         // never referenced

__global__ void entry(int *out) { out[threadIdx.x] = live_fn(threadIdx.x); }
