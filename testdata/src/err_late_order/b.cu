// 8 more bytes: the merged bank is 0x10004 bytes, over the 64 KiB bank.
__constant__ int c2[2] = {1, 2};
__device__ int f(int i) { return c2[i & 1]; }
