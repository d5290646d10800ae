__device__ int bias = 3;
__device__ float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};
template <class T> __device__ T twice(T x) { return x + x; }
__device__ float scale(float x) { return twice(x) * 0.5f + sqrtf(x); }
__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
