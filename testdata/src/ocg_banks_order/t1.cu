#include <cstdio>
#include <cstdlib>
template<typename T> __device__ __noinline__ T tmpl(T x){ return x*(T)3 + (T)1; }
extern "C" __device__ int cf0(int x);
extern "C" __device__ int cf1(int x){ return (x>>1)+7; }
extern "C" __noinline__ __device__ int cf2(int x){ return x*3+1; }
__align__(128) __device__ float g0;
__align__(32) __device__ float g1[5000] = {3,10,17,24,31};
extern __constant__ double c0[4];
extern __constant__ float c1[1];
__managed__ double m0;
static __device__ __noinline__ int sfn(int x){ return x+11; }
