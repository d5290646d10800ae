// 65532 bytes of __constant__ data used only by kernel k, which the host
// code never launches.
__constant__ double ca[8190];
__constant__ int cx[3];
__global__ void k(double *o) { o[threadIdx.x] = ca[threadIdx.x] + cx[threadIdx.x]; }
