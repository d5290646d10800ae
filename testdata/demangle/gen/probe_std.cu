// flags: -std=c++17
// std:: names: the St, Sa, Sb, Ss, Si, So, Sd abbreviations. No library
// header is included, so the declarations below are the only std:: ones.
#define P __device__ __noinline__
typedef decltype(nullptr) nullptr_t;
typedef unsigned long size_t;

namespace std {
// Declared only: enough to get the std:: abbreviations into manglings.
template <class C> struct char_traits;
template <class T> class allocator;
template <class C, class T, class A> class basic_string;
template <class C, class T> class basic_istream;
template <class C, class T> class basic_ostream;
template <class C, class T> class basic_iostream;
template <class T> struct numeric_limits;
struct my_type { int v; };
P int use(my_type m) { return m.v; }
namespace inner { P int deep(int x) { return x; } }
} // namespace std

typedef std::basic_string<char, std::char_traits<char>, std::allocator<char>> string_t;
P int s_str(const string_t *s) { return s != 0; }
P int s_istream(std::basic_istream<char, std::char_traits<char>> *s) { return s != 0; }
P int s_ostream(std::basic_ostream<char, std::char_traits<char>> &s) { return &s != 0; }
P int s_iostream(std::basic_iostream<char, std::char_traits<char>> *s) { return s != 0; }
P int s_alloc(std::allocator<int> *a, std::allocator<float> *b) { return a != 0 && b != 0; }
P int s_wstr(std::basic_string<wchar_t, std::char_traits<wchar_t>, std::allocator<wchar_t>> *s) { return s != 0; }
P int s_traits(std::char_traits<char16_t> *t) { return t != 0; }
P int s_lim(std::numeric_limits<int> *l, std::my_type *m) { return l != 0 && m != 0; }
template <class T> P int s_tmpl(std::allocator<T> *a, T v) { return a != 0 && v; }
namespace std {
template <class T, T V> struct int_const { static constexpr T value = V; };
typedef int_const<bool, true> true_t;
template <class A, class B> struct duo { A first; B second; };
template <class T> struct vec { T *p; P void push_back(const T &v) { *p = v; } P T &operator[](size_t i) { return p[i]; } };
template <class T> T &&declval_();
template <class T> struct rm_ref { typedef T type; };
template <class T> P T &&move_(T &x) { return static_cast<T &&>(x); }
} // namespace std
P int s_pair(std::duo<int, float> p) { return p.first; }
P int s_intc(std::int_const<int, 3>, std::true_t) { return 3; }
template <class T> P auto s_declval_(T x) -> decltype(std::declval_<T>() + 1) { return x + 1; }
template <class T> P typename std::rm_ref<T>::type s_rr(T x) { return x; }
P int s_nullptr(nullptr_t, size_t n) { return (int)n; }


__global__ void std_kernel(int *o, float *f) {
  o[4] = std::use(std::my_type{o[5]}) + std::inner::deep(o[6]);
  o[7] = s_str((string_t *)o) + s_istream(0) + s_ostream(*(std::basic_ostream<char, std::char_traits<char>> *)o) + s_iostream(0) + s_alloc(0, 0) + s_wstr(0) + s_traits(0) + s_lim(0, 0) + s_tmpl((std::allocator<int> *)o, o[8]) + s_pair(std::duo<int, float>{o[9], f[9]}) + s_intc({}, {}) + s_nullptr(nullptr, o[10]);
  std::vec<int> v{o};
  v.push_back(o[11]);
  o[12] = v[3] + s_declval_(o[13]) + s_rr(o[14]) + std::move_(o[15]);
  std::vec<std::duo<int, float>> vp{(std::duo<int, float> *)f};
  vp.push_back(std::duo<int, float>{o[16], f[17]});
}
