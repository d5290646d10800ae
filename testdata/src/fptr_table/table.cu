extern "C" __device__ __noinline__ int cf0(int x){ return x*3+1; }
