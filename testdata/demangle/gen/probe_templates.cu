// flags: -std=c++17 --extended-lambda --expt-relaxed-constexpr
// Templates: unsubstituted parameters, literals, packs, template template
// arguments, nested templates, lambdas and closures, decltype.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <utility>
#include <type_traits>

#define P __device__ __noinline__

template <typename T> P T accumulate(const T *p, int n) { T s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
template <typename T> __global__ void scale_kernel(T *p, T s) { p[threadIdx.x] *= s; }
template <typename T, int N> struct Fixed { T v[N]; };
template <typename T, int N> P T sum_fixed(Fixed<T, N> f) { T s = 0; for (int i = 0; i < N; i++) s += f.v[i]; return s; }
template <int N> P int lit_int(int x) { return x + N; }
template <unsigned N> P int lit_uint(int x) { return x + N; }
template <long N> P long lit_long(long x) { return x + N; }
template <unsigned long long N> P long lit_ull(long x) { return x + N; }
template <char C> P int lit_char(int x) { return x + C; }
template <signed char C> P int lit_schar(int x) { return x + C; }
template <unsigned char C> P int lit_uchar(int x) { return x + C; }
template <short S> P int lit_short(int x) { return x + S; }
template <bool B> P int lit_bool(int x) { return B ? x : -x; }
template <bool A, bool B> P int lit_bools(int x) { return A + B + x; }
enum Mode { Fast = 1, Slow = -2 };
enum class Kind : short { A = 3, B = -7 };
template <Mode M> P int lit_enum(int x) { return x * M; }
template <Kind K> P int lit_kind(int x) { return x * (int)K; }
template <typename T, T V> P T lit_dep(T x) { return x + V; }
template <auto V> P int lit_auto(int x) { return x + (int)V; }
__device__ int gvar;
__device__ int garr[4];
template <int *P_> P int lit_ptr(int x) { return P_ ? *P_ + x : x; }
template <int &R> P int lit_ref(int x) { return R + x; }
template <int (*F)(int)> P int lit_fn(int x) { return F(x); }
__device__ int twice(int x) { return 2 * x; }
struct Obj { int m; P int get(int x) const { return m + x; } };
template <int Obj::*M> P int lit_mem(Obj o) { return o.*M; }
template <int (Obj::*F)(int) const> P int lit_memfn(Obj o) { return (o.*F)(1); }
template <decltype(nullptr) N> P int lit_null(int x) { return x; }

__device__ int counter;
template <typename... Ts> P int count(Ts... ts) { return counter + sizeof...(Ts); }
template <typename T, typename... Rest> P T first(T t, Rest... r) { return t + (T)sizeof...(r); }
template <int... Is> P int isum(int x) { return (x + ... + Is); }
template <typename... Ts> P int refs(const Ts &...ts) { return (0 + ... + (int)ts); }
template <typename... Ts> P int ptrs(Ts *...ts) { return (0 + ... + (ts ? 1 : 0)); }
template <typename... Ts> struct Pack {};
template <typename... Ts> P int packarg(Pack<Ts...>, int x) { return x + sizeof...(Ts); }

template <template <typename, int> class C, typename T> P T from_tt(C<T, 2> c) { return c.v[0] + c.v[1]; }
template <typename T> struct Box { T v; };
template <template <typename> class C> P int from_tt1(C<int> c) { return c.v; }

template <typename T> struct Outer {
  template <typename U> struct Inner {
    T t; U u;
    P T get(U x) const { return t + (T)x; }
    template <typename V> P V conv(V v) const { return v + (V)t; }
  };
  T val;
  P T plain(T x) const { return val + x; }
  template <typename U> P U member(U u, T t) const { return u + (U)t; }
  static P T stat(T x) { return x; }
};

template <typename T> P T same2(T a, T b, T *c) { return a + b + *c; }
template <typename T, typename U> P auto add(T a, U b) -> decltype(a + b) { return a + b; }
template <typename T> P auto autoret(T a) { return a * 2; }
template <typename T> P decltype(auto) dauto(T &a) { return (a); }
template <typename T> P typename std::remove_reference<T>::type rmref(T &&a) { return a; }
template <typename T> P std::enable_if_t<std::is_integral<T>::value, T> only_int(T a) { return a + 1; }
template <typename T> P int sz(T a) { return sizeof(T) + (int)a; }
template <typename T> P void set_ref(T &r, const T &v) { r = v; }
template <typename T, int N> P T arr_first(T (&a)[N]) { return a[0]; }
template <typename T, int N> P T arr_ptr(T (*a)[N]) { return (*a)[N - 1]; }
template <typename R, typename A> P R call(R (*f)(A), A a) { return f(a); }
template <typename T> P T call_mem(const Obj &o, T (Obj::*f)(int) const) { return (o.*f)(2); }
template <typename F> P int apply(F f, int x) { return f(x); }
template <typename F> __global__ void apply_kernel(F f, int *o) { o[0] = f(o[1]); }
template <typename T> P T half_op(T a, T b) { return a + b; }
template <typename T> P T cv_t(const volatile T *p) { return *p; }
template <typename T> P T rref_t(T &&a) { return a; }
template <typename T> P T fwd(T &&a) { return std::forward<T>(a); }

struct Functor { int k; P int operator()(int x) const { return x * k; } };

P int lambdas(int x, int *o) {
  auto l1 = [](int v) { return v + 1; };
  auto l2 = [x](int v) { return v * x; };
  auto l3 = [&](int v) { return v - x; };
  auto g = [](auto v) { return v + 2; };
  return apply(l1, x) + apply(l2, x) + apply(l3, x) + apply(Functor{3}, x) + g(x) + (int)g(1.0f) + apply([](int v) { return v * 7; }, x);
}

template <typename T> struct Wrapper {
  T v;
  P Wrapper(T x) : v(x) {}
  P ~Wrapper() { v = 0; }
  P operator T() const { return v; }
  template <typename U> P operator Wrapper<U>() const { return Wrapper<U>((U)v); }
};

__global__ void templates_kernel(int *o, float *f, double *d, long *l) {
  o[0] = accumulate(o, 4);
  f[0] = accumulate(f, 4);
  d[0] = accumulate((const double *)d, 4);
  Fixed<int, 4> fi{{1, 2, 3, 4}};
  Fixed<float, 2> ff{{1, 2}};
  o[1] = sum_fixed(fi) + (int)sum_fixed(ff) + from_tt(ff);
  o[2] = lit_int<4>(o[0]) + lit_int<-5>(o[0]) + lit_int<0>(o[0]) + lit_uint<7u>(o[0]) + (int)lit_long<-9l>(o[0]) + (int)lit_ull<123456789012ull>(o[0]);
  o[3] = lit_char<'a'>(o[0]) + lit_schar<-3>(o[0]) + lit_uchar<200>(o[0]) + lit_short<-300>(o[0]) + lit_bool<true>(o[0]) + lit_bool<false>(o[0]) + lit_bools<true, false>(o[0]);
  o[4] = lit_enum<Fast>(o[0]) + lit_enum<Slow>(o[0]) + lit_kind<Kind::A>(o[0]) + lit_kind<Kind::B>(o[0]);
  o[5] = lit_dep<int, 5>(o[0]) + (int)lit_dep<unsigned char, 9>(o[0]) + lit_auto<3>(o[0]) + lit_auto<'x'>(o[0]) + lit_auto<7ul>(o[0]);
  o[6] = lit_ptr<&gvar>(o[0]) + lit_ptr<nullptr>(o[0]) + lit_ref<gvar>(o[0]) + lit_fn<twice>(o[0]) + lit_ptr<garr>(o[0]);
  Obj ob{o[7]};
  o[8] = lit_mem<&Obj::m>(ob) + lit_memfn<&Obj::get>(ob) + lit_null<nullptr>(o[0]);
  o[9] = count() + count(1) + count(1, 2.0f, 'c') + first(o[0], 1.0, f) + isum<1, 2, 3>(o[0]) + isum<>(o[0]) + refs(o[0], f[0]) + ptrs(o, f, d) + packarg(Pack<int, float>{}, 1) + packarg(Pack<>{}, 2);
  o[10] = from_tt1(Box<int>{o[1]});
  Outer<int>::Inner<float> oi{o[0], f[0]};
  o[11] = oi.get(f[1]) + (int)oi.conv(d[0]) + oi.conv(o[2]);
  Outer<double> od{d[1]};
  o[12] = (int)od.plain(d[2]) + od.member(o[3], d[3]) + (int)od.member(f[3], 1.0) + Outer<short>::stat(3);
  o[13] = same2(o[0], o[1], o) + (int)add(o[0], f[0]) + (int)add(d[0], o[1]) + autoret(o[2]) + dauto(o[3]) + rmref(o[4]) + rmref(o[5] + 1) + only_int(o[6]) + sz(f[7]) + sz('c');
  set_ref(o[14], o[15]);
  set_ref(f[14], f[15]);
  int arr[3] = {o[16], o[17], o[18]};
  o[19] = arr_first(arr) + arr_ptr(&arr) + call(twice, o[20]) + call_mem(ob, &Obj::get) + lambdas(o[21], o);
  __half h = half_op(__float2half(f[22]), __float2half(f[23]));
  __nv_bfloat16 b = half_op(__float2bfloat16(f[24]), __float2bfloat16(f[25]));
  f[26] = __half2float(h) + __bfloat162float(b);
  o[27] = cv_t(o) + rref_t(7) + fwd(o[28]) + fwd(8);
  Wrapper<int> w(o[29]);
  Wrapper<float> wf = w;
  o[30] = (int)w + (int)(float)wf;
}

template __global__ void scale_kernel<float>(float *, float);
template __global__ void scale_kernel<double>(double *, double);
template __global__ void scale_kernel<__half>(__half *, __half);

void host_launch(int *o) {
  apply_kernel<<<1, 1>>>([] __device__(int v) { return v + 11; }, o);
  int k = 3;
  apply_kernel<<<1, 1>>>([k] __device__(int v) { return v * k; }, o);
  apply_kernel<<<1, 1>>>([=] __host__ __device__(int v) { return v - k; }, o);
}
