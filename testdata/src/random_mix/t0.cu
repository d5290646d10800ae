#include <cstdio>
#include <cstdlib>
extern "C" __noinline__ __device__ int cf0(int x){ return (x>>1)+7; }
extern "C" __noinline__ __device__ int cf1(int x){ return x*3+1; }
extern "C" __device__ int cf2(int x){ return x*x-2; }
namespace nsA { __device__ int pf0(int x); __device__ float pf0(float x); }
namespace nsA { __device__ int pf1(int x); __device__ float pf1(float x); }
__constant__ int c0[256];
__constant__ float c1[256];
extern __constant__ char c2[256];
extern __managed__ double m0[8];
__device__ int shf(int x);
__device__ int ra(int n); __device__ int rb(int n);
__device__ int ra(int n){ return n<=0?1:rb(n-1)+2; }
__device__ int rb(int n){ return n<=0?3:ra(n/2)*2; }
__global__ void k0_0(int* out, int in){
  int x = threadIdx.x + in; int r = 0;
  r += cf0(x);
  r += cf1(x);
  r += cf2(x);
  r += nsA::pf1(x);
  r += (int)c0[x % 256];
  r += (int)c2[x % 256];
  m0[x % 8] += r;
  r += ra(x);
  r += shf(x);
  __shared__ float4 ss[1000]; ss[x % 1000].x = r; __syncthreads(); r += (int)ss[(x+1) % 1000].y;
  printf("k0 %d %f\n", r, (double)x);
  out[x] = r;
}
