#include <cstdio>
#include <cstdlib>
template<typename T> __device__ __noinline__ T tmpl(T x){ return x*(T)3 + (T)1; }
extern "C" __noinline__ __device__ int cf0(int x){ return x^0x55; }
extern "C" __device__ int cf1(int x);
extern "C" __device__ int cf2(int x);
extern __align__(128) __device__ float g0;
extern __align__(32) __device__ float g1[5000];
__constant__ double c0[4] = {1,2,3,4};
__constant__ float c1[1] = {1};
extern __managed__ double m0;
static __device__ __noinline__ int sfn(int x){ return x+1; }
__global__ void k0_0(int* out, int in){
  int x = threadIdx.x + in; int r = 0;
  r += cf0(x);
  r += cf2(x);
  r += (int)g1[x % 5000]; g1[x % 5000] = r;
  m0 += r;
  extern __shared__ int dynint[]; dynint[x] = r; r += (int)dynint[x+1];
  r += atomicAdd(out, r); atomicMax(out+1, x); atomicCAS((unsigned long long*)(out+2), 0ull, (unsigned long long)r);
  out[x] = r;
}
__global__ void __launch_bounds__(256, 2) k0_1(int* out, int in){
  int x = threadIdx.x + in; int r = 0;
  r += cf0(x);
  r += cf1(x);
  r += (int)g0; g0 = r;
  r += (int)g1[x % 5000]; g1[x % 5000] = r;
  r += (int)c0[x % 4];
  r += tmpl<int>(x) + (int)tmpl<long long>((long long)r);
  r += atomicAdd(out, r); atomicMax(out+1, x); atomicCAS((unsigned long long*)(out+2), 0ull, (unsigned long long)r);
  out[x] = r;
}
