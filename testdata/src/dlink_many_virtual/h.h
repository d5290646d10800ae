// Included by every TU: inline virtual functions and an inline helper making indirect calls
// are weak copies in each object; only the kept copy's indirect call sites count.
typedef float (*unary_fn)(float);
extern __device__ unary_fn op_table[4];
struct Base {
  __device__ virtual float f(float x) const { return x + 1; }
  __device__ virtual ~Base() {}
};
struct D1 : Base { __device__ float f(float x) const override { return x - 1; } };
__device__ __noinline__ inline float call_fp(unary_fn fn, float x) { return fn(x) + fn(x + 1); }
template <typename T> __device__ __noinline__ T twice(T x) { return x + x; }
