// sm_100+ re-finalization: the kernel's opening region (parameter, special-
// register and uniform loads up to the predicated EXIT, which retires all of
// them) is re-allocated by nvlink without the stack-pointer load, and the rest
// keeps ptxas's scoreboards. The whole-kernel model does not reproduce ptxas's
// allocation of the CAS loop (at the ATOMG), so only the region's rule
// applies: the S2R, S2UR and LDC read by the same instruction share one index
// (also with indices free), and what the stack-pointer load held goes.
struct Slot { unsigned k, v; };

__device__ unsigned mix(unsigned x)
{
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 12;
    return x;
}

__global__ void put(Slot *__restrict__ t, const Slot *__restrict__ in, unsigned n, unsigned mask)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned k = in[i].k, v = in[i].v, s = mix(k) & mask;
        while (true) {
            unsigned old = atomicCAS(&t[s].k, 0xffffffffu, k);
            if (old == 0xffffffffu || old == k) {
                atomicExch(&t[s].v, v);
                return;
            }
            s = (s + 1) & mask;
        }
    }
}
