extern "C" __device__ int cf0(int x);
__global__ void k(int* out, int in){ out[threadIdx.x] = cf0(threadIdx.x + in); }
