// Weak helpers making indirect calls, defined in every TU that includes this header.
typedef float (*unary_fn)(float);
extern __device__ unary_fn op_table[4];
struct Base {
  __device__ virtual float f(float x) const { return x + 1; }
  __device__ virtual float g(float x) const { return x * 2; }
  __device__ virtual ~Base() {}
};
struct D1 : Base { __device__ float f(float x) const override { return x - 1; } };
__device__ __noinline__ inline float call_fp(unary_fn fn, float x) { return fn(x) + fn(x + 1); }
__device__ __noinline__ inline float call_v(const Base *b, float x) { return b->f(x) + b->g(x); }
template <typename F> __device__ __noinline__ float tcall(F fn, float x) { return fn(x); }
