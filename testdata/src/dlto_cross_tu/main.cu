// Built with -dlto: each object carries LTO IR (lto_XX) and PTX (compute_XX).
#include <cstdio>
__device__ float scale(float x);
__device__ int fib(int n);
extern __device__ int bias;
extern __device__ float table[4];
template <class T> __device__ T twice(T x) { return x + x; }
struct Shape { __device__ virtual float area() const { return 0.0f; } };
struct Square : Shape { float s; __device__ Square(float v) : s(v) {} __device__ float area() const override { return s * s; } };
__global__ void kernel(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Square sq(out[i % n]);
  const Shape &sh = sq;
  if (i < n)
    out[i] = scale(out[i]) + twice(out[i]) + bias + table[i & 3] + fib(i & 7) + sh.area();
}
int main() {
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  kernel<<<1, 64>>>(d, 64);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
