// Nothing in this TU is referenced by any kernel.
__device__ int never_called(int x) { return x * x * x - 17; }
__device__ float never_called_too(float x) { return x / 3.0f + never_called((int)x); }
__device__ double unused_table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__constant__ int unused_const[4] = {9, 9, 9, 9};
