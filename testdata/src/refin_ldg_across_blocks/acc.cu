// sm_100+ re-finalization: a global load whose result is still pending on
// entry to another basic block (an accumulator loaded before a loop and used
// after it) takes scoreboard 5, not the lowest free index from 2. ptxas's
// allocation and nvlink's re-finalization alike.
__global__ void acc_across_loop(float *out, const float *in, int n)
{
    float acc = out[threadIdx.x];
    for (int i = 0; i < n; i++)
        acc += in[i * blockDim.x + threadIdx.x];
    out[threadIdx.x] = acc;
}
