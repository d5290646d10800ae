extern "C" {
__device__ __noinline__ float f0(float x);
__device__ __noinline__ float f1(float x);
__device__ __noinline__ float f2(float x);
__device__ __noinline__ float f3(float x);
__device__ __noinline__ float f0(float x) { return __sinf(x) + (x > 0.0f ? f1(x*0.5f-0.0f) : 0.0f) + (x > 1.0f ? f3(x*0.5f-1.0f) : 0.0f); }
__device__ __noinline__ float f1(float x) { return __sinf(x) + (x > 0.0f ? f2(x*0.5f-0.0f) : 0.0f); }
__device__ __noinline__ float f2(float x) { return __sinf(x) + (x > 0.0f ? f3(x*0.5f-0.0f) : 0.0f); }
__device__ __noinline__ float f3(float x) { return __sinf(x) + (x > 0.0f ? f1(x*0.5f-0.0f) : 0.0f) + (x > 1.0f ? f3(x*0.5f-1.0f) : 0.0f); }
__global__ void k0(float*o,float v){ o[threadIdx.x] = f1(v+0.0f) + f3(v+1.0f); }
__global__ void k1(float*o,float v){ o[threadIdx.x] = f0(v+0.0f) + f2(v+1.0f); }
}
