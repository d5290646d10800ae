// The only kernel of the link calls f and g (defined in lib.cu), which need vprintf,
// __assertfail and (through h in h.cu) malloc/free/vprintf: nvlink rebuilds the kernel's
// EIATTR_EXTERNS list (single-kernel links get the reversed order, record moved last).
extern __device__ int f(int);
extern __device__ int g(int);
__global__ void k(int *o) { o[0] = f(1); int *p = (int *)malloc(8); o[1] = g(2); free(p); }
