extern "C" {
__device__ __noinline__ float f0(float x);
__device__ __noinline__ float f1(float x);
__device__ __noinline__ float f2(float x);
__device__ __noinline__ float f3(float x);
__device__ __noinline__ float f4(float x);
__device__ __noinline__ float f5(float x);
__device__ __noinline__ float f6(float x);
__device__ __noinline__ float f7(float x);
__device__ __noinline__ float f0(float x) { return __sinf(x) + (x > 0.0f ? f1(x*0.5f-0.0f) : 0.0f) + (x > 1.0f ? f3(x*0.5f-1.0f) : 0.0f) + (x > 2.0f ? f5(x*0.5f-2.0f) : 0.0f) + (x > 3.0f ? f7(x*0.5f-3.0f) : 0.0f); }
__device__ __noinline__ float f1(float x) { return __sinf(x) + (x > 0.0f ? f6(x*0.5f-0.0f) : 0.0f); }
__device__ __noinline__ float f2(float x) { return __sinf(x) + (x > 0.0f ? f3(x*0.5f-0.0f) : 0.0f) + (x > 1.0f ? f5(x*0.5f-1.0f) : 0.0f); }
__device__ __noinline__ float f3(float x) { return __sinf(x) + (x > 0.0f ? f7(x*0.5f-0.0f) : 0.0f); }
__device__ __noinline__ float f4(float x) { return __sinf(x) + (x > 0.0f ? f1(x*0.5f-0.0f) : 0.0f) + (x > 1.0f ? f2(x*0.5f-1.0f) : 0.0f); }
__device__ __noinline__ float f5(float x) { return __sinf(x) + (x > 0.0f ? f3(x*0.5f-0.0f) : 0.0f) + (x > 1.0f ? f6(x*0.5f-1.0f) : 0.0f); }
__device__ __noinline__ float f6(float x) { return __sinf(x) + (x > 0.0f ? f2(x*0.5f-0.0f) : 0.0f) + (x > 1.0f ? f7(x*0.5f-1.0f) : 0.0f); }
__device__ __noinline__ float f7(float x) { return __sinf(x); }
__global__ void k0(float*o,float v){ o[threadIdx.x] = f4(v+0.0f) + f6(v+1.0f); }
__global__ void k1(float*o,float v){ o[threadIdx.x] = f6(v+0.0f); }
}
