// A kernel that needs a local-memory frame (dynamically indexed local array)
// next to kernels that need no stack at all. On sm_100+ nvlink re-finalizes
// only the frameless ones.
__global__ void with_frame(float *out, const int *idx, int n)
{
    float local[16];
    for (int i = 0; i < 16; i++)
        local[i] = out[i * n + threadIdx.x];
    out[threadIdx.x] = local[idx[threadIdx.x] & 15] + local[idx[threadIdx.x + 1] & 15];
}

__global__ void frameless(float *out, const float *a, const float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i] * b[i] + a[i + n];
}

__global__ void frameless_loop(int *out, const int *in, int n)
{
    int s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s += in[i];
    out[threadIdx.x] = s;
}
