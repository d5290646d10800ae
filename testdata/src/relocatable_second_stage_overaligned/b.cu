// Second stage: new users of both arrays, without data of their own.
extern __shared__ __align__(32) float g[8];
extern __shared__ float dyn[];
__global__ void kb(float *o) { g[threadIdx.x % 8] = o[3]; dyn[threadIdx.x] = 2.0f; __syncthreads(); o[0] = dyn[1] + (float)g[(threadIdx.x + 1) % 8]; }
__global__ void kc(float *o) { dyn[threadIdx.x] = 2.0f; __syncthreads(); o[0] = dyn[1]; }
