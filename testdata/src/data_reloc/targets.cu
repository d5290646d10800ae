__device__ int target_a = 5;
__device__ float target_arr[8];
__constant__ double target_c[2] = {3.0, 4.0};
