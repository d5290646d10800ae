// Callees of the -dump-callgraph case.
struct Vec2 {
  float x, y;
};
__device__ __noinline__ Vec2 operator+(const Vec2 &a, const Vec2 &b) { return {a.x + b.x, a.y + b.y}; }

template <typename T> __device__ __noinline__ T accumulate(const T *p, int n) {
  T s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i] * p[(i * 7) % n] + p[(i * 3) % n];
  return s;
}
template __device__ float accumulate<float>(const float *, int);
template __device__ double accumulate<double>(const double *, int);

__device__ __noinline__ int depth(int n) { return n <= 0 ? 0 : 1 + depth(n - 2); }

__device__ __noinline__ float op_neg(float v) { return -v; }
__device__ __noinline__ float op_sq(float v) { return v * v; }
__device__ __noinline__ float op_exp(float v) { return __expf(v) * __sinf(v) + __cosf(v * 2.0f); }
__device__ float (*const op_table[3])(float) = {op_neg, op_sq, op_exp};
__device__ float apply_op(int which, float v) { return op_table[which](v); }

__device__ __noinline__ int never_called(int x) { return x * 17 + 3; }

struct Shape {
  __device__ virtual float area() const = 0;
  __device__ virtual ~Shape() {}
};
struct Circle : Shape {
  float r;
  __device__ explicit Circle(float rr) : r(rr) {}
  __device__ float area() const override { return 3.14159f * r * r; }
};
struct Square : Shape {
  float a;
  __device__ explicit Square(float aa) : a(aa) {}
  __device__ float area() const override { return a * a; }
};
__device__ Shape *make_shape(int kind, float s) {
  if (kind)
    return new Circle(s);
  return new Square(s);
}
