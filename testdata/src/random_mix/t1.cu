#include <cstdio>
#include <cstdlib>
extern "C" __device__ int cf0(int x);
extern "C" __device__ int cf1(int x);
extern "C" __device__ int cf2(int x);
namespace nsA { __noinline__ __device__ int pf0(int x){ return x*5; } __device__ float pf0(float x){ return x*2.5f; } }
namespace nsA { __noinline__ __device__ int pf1(int x){ return x+11; } __device__ float pf1(float x){ return x*2.5f; } }
extern __constant__ int c0[256];
extern __constant__ float c1[256];
__constant__ char c2[256] = {1,2,3,4,5,6};
__managed__ double m0[8];
__device__ __noinline__ int shf(int x){ __shared__ int sbuf[100]; sbuf[threadIdx.x % 100] = x; __syncthreads(); return sbuf[(x+1) % 100]; }
__device__ int ra(int n); __device__ int rb(int n);
__global__ void k1_0(int* out, int in){
  int x = threadIdx.x + in; int r = 0;
  r += cf0(x);
  r += cf1(x);
  r += cf2(x);
  r += nsA::pf0(x);
  r += nsA::pf1(x);
  r += (int)c0[x % 256];
  r += (int)c1[x % 256];
  r += shf(x);
  out[x] = r;
}
__global__ void __launch_bounds__(128) k1_1(int* out, int in){
  int x = threadIdx.x + in; int r = 0;
  r += cf0(x);
  r += cf1(x);
  r += cf2(x);
  r += nsA::pf0(x);
  r += (int)c2[x % 256];
  m0[x % 8] += r;
  r += ra(x);
  r += shf(x);
  __shared__ char ss[5]; ss[x % 5] = r; __syncthreads(); r += (int)ss[(x+1) % 5];
  extern __shared__ double dyndouble[]; dyndouble[x] = r; r += (int)dyndouble[x+1];
  printf("k1 %d %f\n", r, (double)x);
  out[x] = r;
}
__global__ void __launch_bounds__(1024, 2) k1_2(int* out, int in){
  int x = threadIdx.x + in; int r = 0;
  r += cf0(x);
  r += cf2(x);
  r += nsA::pf0(x);
  r += (int)nsA::pf0((float)x);
  r += (int)c2[x % 256];
  m0[x % 8] += r;
  r += ra(x);
  r += shf(x);
  r += atomicAdd(out, r); atomicMax(out+1, x); atomicCAS((unsigned long long*)(out+2), 0ull, (unsigned long long)r);
  out[x] = r;
}
