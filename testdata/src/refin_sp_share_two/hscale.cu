#include <cuda_fp16.h>
// sm_100+ re-finalization: ptxas puts two uniform loads (0x80 and 0x90 at
// sm_100) on the stack-pointer load's scoreboard while indices 0-4 are
// pending and 5 is free. nvlink gives the first the index the stack-pointer
// load frees and puts the second on the lowest index still pending.
__global__ void hscale(int n, __half a, const __half *x, __half *y)
{
    int first = threadIdx.x + blockDim.x * blockIdx.x;
    int step = blockDim.x * gridDim.x;
    for (int i = first; i < n / 2; i += step) {
        __half2 v = ((const __half2 *)x)[i];
        ((__half2 *)y)[i] = __hmul2(__halves2half2(a, a), v);
    }
    if (first == 0 && (n % 2))
        y[n - 1] = __hmul(a, x[n - 1]);
}
