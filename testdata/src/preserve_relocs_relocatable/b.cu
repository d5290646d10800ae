// Device functions and variables; one function nobody calls.
__device__ int counter = 7;
__constant__ int table[4] = {1, 2, 3, 4};
__device__ int *ptr_to_counter = &counter;
template <typename T> __device__ T twice(T x) { return x + x; }
template __device__ int twice<int>(int);

__device__ int scale(int x) { return twice(x) * *ptr_to_counter; }
__device__ int never_called(int x) { return x * 3 + counter; }

__global__ void k_second(float *out) { out[0] = sqrtf(out[1]) / out[2]; }
