// -kernels-used=kb with libcudadevrt: child and libcudadevrt's memcpy/memset
// kernels are kept only because their address is taken; nvlink merges them
// like device functions (no .nv.info/.nv.shared in the first pass, no
// MIN_STACK_SIZE) and kb, the only kernel left, takes every function's
// NUM_BARRIERS and CTAIDZ_USED.
__global__ void child(int *p) { p[1] = 3; }
__global__ void parent(int *p) { child<<<1, 1>>>(p); }
__global__ void kb(int *p) { p[0] = 2; }
__global__ void kz(int *p) { p[0] = 4; }
