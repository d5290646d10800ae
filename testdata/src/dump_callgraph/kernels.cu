// Kernels of the -dump-callgraph case; the callees live mostly in lib.cu.
struct Vec2 {
  float x, y;
};
__device__ Vec2 operator+(const Vec2 &a, const Vec2 &b);
template <typename T> __device__ T accumulate(const T *p, int n);
__device__ int depth(int n);
__device__ float apply_op(int which, float v);

struct Shape {
  __device__ virtual float area() const = 0;
  __device__ virtual ~Shape() {}
};
__device__ Shape *make_shape(int kind, float s);

namespace {
__device__ __noinline__ float local_helper(float v) { return v * 0.5f + 1.0f; }
} // namespace

__global__ void k_sum(const float *in, const double *din, float *out, int n) {
  out[threadIdx.x] = accumulate(in, n) + (float)accumulate(din, n) + local_helper(in[0]);
}

__global__ void k_shapes(float *out) {
  Shape *s = make_shape(threadIdx.x & 1, out[threadIdx.x]);
  out[threadIdx.x] = s->area();
  delete s;
}

__global__ void k_misc(float *out, int *iout) {
  Vec2 a{out[0], out[1]}, b{out[2], out[3]};
  Vec2 c = a + b;
  out[threadIdx.x] = c.x * c.y + apply_op(threadIdx.x % 3, out[threadIdx.x]);
  iout[threadIdx.x] = depth(iout[threadIdx.x]);
}

extern "C" __global__ void k_plain(int *p) { p[threadIdx.x] += 1; }
