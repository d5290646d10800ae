// A pointer initialiser in the __constant__ bank: the bank gets a
// relocation section (sm_100+: named .rela.nv.constant3 in the output,
// its capsule-Mercury twin .nv.merc.rela.nv.constant.user).
__device__ int x[4];
__constant__ int *cp = &x[1];
__global__ void k(int *p) { p[0] = *cp; }
