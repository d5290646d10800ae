// A second kernel the filter leaves out, calling a function of a.cu.
__device__ void usez(int *o);
__device__ __noinline__ int deep(int x) { return x * 3 + 1; }
__global__ void kb(int *o) { usez(o); o[2] = deep(o[3]); }
