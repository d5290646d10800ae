// Member of an archive whose name contains "cudadevrt": its .nvHRKE lists kd.
__device__ __noinline__ int dfun(int x) { return x + 1; }
__global__ void kd(int *o) { o[0] = dfun(1); }
__global__ void kd2(int *o) { o[0] = 3; }
void launchd(int *o) { kd<<<1, 1>>>(o); }
