// __constant__ data read after an early return: with -g on sm_100+ the kernel
// gets the debug exit sequence before its EXITs, and the constant's offset is
// written into its capsule past them.
__constant__ int table_a[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
__global__ void ka(int *p, int n) {
  if (threadIdx.x >= n) return;
  p[threadIdx.x] = table_a[threadIdx.x & 15];
}
