__device__ inline __noinline__ int shared_inline(int x) { return x * 7 + 3; }
template <typename T> __device__ __noinline__ T twice(T x) { return x + x; }
struct Counter { __device__ __noinline__ int bump(int x) const { return x + step; } int step; };
