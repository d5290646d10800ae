// fz reads %ctaid.z: nvlink adds CTAIDZ_USED to ka, which calls it, not to kb.
__device__ __noinline__ void fz(int *o) { o[blockIdx.z] = 5; }
__global__ void ka(int *o) { fz(o); }
__global__ void kb(int *o) { o[0] = 1; }
