// A local array indexed by the thread: the kernel keeps a stack frame even
// at -G's optimisation level zero for everything else.
__global__ void with_frame(int *out, int n)
{
    int a[16];
    for (int i = 0; i < 16; i++)
        a[i] = out[i] * n;
    out[threadIdx.x] = a[threadIdx.x & 15];
}

__global__ void plain(int *out)
{
    out[threadIdx.x] += 1;
}
