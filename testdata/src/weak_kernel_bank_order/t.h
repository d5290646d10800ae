struct Add { __device__ int operator()(int a, int b) const { return a + b; } };
struct Mul { __device__ int operator()(int a, int b) const { return a * b; } };
template <typename Op> __global__ void combine(int *o, const int *a, const int *b) { o[threadIdx.x] = Op()(a[threadIdx.x], b[threadIdx.x]); }
template <typename T> __device__ T tvar = T(7);
inline __device__ int ivar = 11;
template <typename T> __device__ __noinline__ T scale(T x) { return x * tvar<T> + ivar; }
typedef int (*iop)(int);
template <int K> __device__ int addk(int x) { return x + K; }
inline __device__ iop ftab[3] = {addk<1>, addk<2>, addk<3>};
