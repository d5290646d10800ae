extern __device__ int target_a;
extern __device__ float target_arr[8];
extern __constant__ double target_c[2];
__device__ int *p_a = &target_a;
__device__ float *p_arr_mid = &target_arr[4];
__device__ const double *p_c = target_c;
struct Desc { int *a; float *b; int n; };
__device__ Desc desc = {&target_a, target_arr, 8};
