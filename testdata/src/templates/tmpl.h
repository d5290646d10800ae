template <typename T> __device__ T accumulate(const T *p, int n);
template <typename T, int N> struct Fixed { T v[N]; };
template <typename T, int N> __device__ T sum_fixed(Fixed<T, N> f);
extern template __device__ int accumulate<int>(const int *, int);
extern template __device__ float accumulate<float>(const float *, int);
extern template __device__ double accumulate<double>(const double *, int);
extern template __device__ int sum_fixed<int, 4>(Fixed<int, 4>);
