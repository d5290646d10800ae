#include <cstdlib>
__device__ int rec0(int n);
__global__ void k(int* out, int in){
  int r = rec0(in);
  int* p = (int*)malloc(64); if(p){ p[in&15]=r; r+=p[0]; free(p);}
  out[threadIdx.x] = r;
}
