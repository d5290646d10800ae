// flags: -std=c++20
// Builtin and compound parameter types.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstddef>

#define P __device__ __noinline__

struct Big { int a[8]; };
namespace ns { struct Inner { int x; }; namespace deep { struct Leaf { int y; }; } }
enum Color { Red, Green };
enum class Shade : unsigned char { Dark, Light };
union U { int i; float f; };
typedef int (*IntFn)(int);

P int t_char(char a) { return a; }
P int t_schar(signed char a) { return a; }
P int t_uchar(unsigned char a) { return a; }
P int t_short(short a) { return a; }
P int t_ushort(unsigned short a) { return a; }
P int t_int(int a) { return a; }
P int t_uint(unsigned a) { return a; }
P int t_long(long a) { return (int)a; }
P int t_ulong(unsigned long a) { return (int)a; }
P int t_llong(long long a) { return (int)a; }
P int t_ullong(unsigned long long a) { return (int)a; }
P int t_i128(__int128 a) { return (int)a; }
P int t_u128(unsigned __int128 a) { return (int)a; }
P int t_float(float a) { return (int)a; }
P int t_double(double a) { return (int)a; }
P int t_bool(bool a) { return a; }
P int t_wchar(wchar_t a) { return a; }
P int t_char16(char16_t a) { return a; }
P int t_char32(char32_t a) { return a; }
P int t_char8(char8_t a) { return a; }
P int t_half(__half a) { return (int)__half2float(a); }
P int t_half2(__half2 a) { return (int)__low2float(a); }
P int t_bf16(__nv_bfloat16 a) { return (int)__bfloat162float(a); }
P int t_float4(float4 a) { return (int)a.x; }
P int t_int2(int2 a) { return a.x; }
P int t_double2p(double2 *a) { return (int)a->x; }
__device__ int counter;
P int t_nullptr(std::nullptr_t) { return counter + 1; }
P int t_void(void) { return counter * 2; }
P int t_sizet(size_t a, ptrdiff_t b) { return (int)(a + b); }
P int t_ptrptr(int **a) { return **a; }
P int t_cptr(const int *a) { return *a; }
P int t_ptrc(int *const a) { return *a; }
P int t_cptrc(const int *const *a) { return **a; }
P int t_vptr(volatile int *a) { return *a; }
P int t_cvptr(const volatile int *a) { return *a; }
P int t_cvptrptr(const volatile char *volatile *a) { return **a; }
P int t_ref(int &a) { return a; }
P int t_cref(const int &a) { return a; }
P int t_rref(int &&a) { return a; }
P int t_ptrref(int *&a) { return *a; }
P int t_cptrref(const char *const &a) { return *a; }
P int t_restrict(int *__restrict__ a) { return *a; }
P int t_crestrict(const float *__restrict__ a, float *__restrict__ b) { return (int)(*a + *b); }
P int t_arrptr(int (*a)[4]) { return (*a)[0]; }
P int t_arrref(int (&a)[4]) { return a[1]; }
P int t_carrref(const float (&a)[3][5]) { return (int)a[1][1]; }
P int t_arr2d(int a[][7]) { return a[0][0]; }
P int t_arrrref(int (&&a)[2]) { return a[0]; }
P int t_fnptr(IntFn f) { return f(1); }
P int t_fnptr2(void (*f)(const char *, ...)) { return f != 0; }
P int t_fnptr3(float (*f)(float, double *)) { return (int)f(1, 0); }
P int t_fnptrret(int (*(*f)(int))(double)) { return f(1)(2.0); }
P int t_fnref(int (&f)(int)) { return f(3); }
P int t_fnptrarr(int (*f[3])(int)) { return f[0](1); }
P int t_fnptrptr(void (**f)()) { return *f != 0; }
P int t_fnnoexcept(void (*f)() noexcept) { return f != 0; }
P int t_memdata(int Big::*m, Big *b) { return b->*m; }
P int t_memfn(int (Big::*m)(int), Big *b) { return m != 0; }
P int t_memfnc(int (Big::*m)(int) const, Big *b) { return m != 0; }
P int t_memfnv(void (Big::*m)() volatile &&) { return m != 0; }
P int t_memarr(float (Big::*m)[4]) { return m != 0; }
P int t_struct(Big b) { return b.a[0]; }
P int t_cstructref(const Big &b, int i) { return b.a[i]; }
P int t_ns(ns::Inner a, ns::deep::Leaf *b) { return a.x + b->y; }
P int t_enum(Color c, Shade s) { return (int)c + (int)s; }
P int t_union(U u) { return u.i; }
P int t_many(char a, short b, int c, long d, float e, double f, bool g, unsigned char h) {
  return a + b + c + (int)d + (int)e + (int)f + g + h;
}
P int t_same(Big *a, Big *b, const Big *c, Big &d) { return a->a[0] + b->a[0] + c->a[0] + d.a[0]; }
P int t_subst(ns::Inner *a, ns::Inner *b, ns::deep::Leaf c, ns::deep::Leaf *d) { return a->x + b->x + c.y + d->y; }
P int t_ptrconstptr(int *const *a, int *const *b) { return **a + **b; }

__device__ int sq(int x) { return x * x; }
__device__ __noinline__ int sq3(const char *p, ...) { return *p + counter; }

__global__ void types_kernel(int *o, Big *b, int **pp, int4 *v) {
  int i = 0;
  o[i++] = t_char((char)o[0]);
  o[i++] = t_schar((signed char)o[0]);
  o[i++] = t_uchar((unsigned char)o[0]);
  o[i++] = t_short((short)o[0]);
  o[i++] = t_ushort((unsigned short)o[0]);
  o[i++] = t_int(o[0]);
  o[i++] = t_uint(o[0]);
  o[i++] = t_long(o[0]);
  o[i++] = t_ulong(o[0]);
  o[i++] = t_llong(o[0]);
  o[i++] = t_ullong(o[0]);
  o[i++] = t_i128(o[0]);
  o[i++] = t_u128(o[0]);
  o[i++] = t_float(o[0]);
  o[i++] = t_double(o[0]);
  o[i++] = t_bool(o[0]);
  o[i++] = t_wchar(o[0]);
  o[i++] = t_char16(o[0]);
  o[i++] = t_char32(o[0]);
  o[i++] = t_char8(o[0]);
  o[i++] = t_half(__float2half((float)o[0]));
  o[i++] = t_half2(__float2half2_rn((float)o[0]));
  o[i++] = t_bf16(__float2bfloat16((float)o[0]));
  o[i++] = t_float4(make_float4(o[0], 1, 2, 3));
  o[i++] = t_int2(make_int2(o[0], 1));
  o[i++] = t_double2p((double2 *)pp);
  o[i++] = t_nullptr(nullptr);
  o[i++] = t_void();
  o[i++] = t_sizet(o[0], o[1]);
  o[i++] = t_ptrptr(pp);
  o[i++] = t_cptr(o);
  o[i++] = t_ptrc(o);
  o[i++] = t_cptrc(pp);
  o[i++] = t_vptr(o);
  o[i++] = t_cvptr(o);
  o[i++] = t_cvptrptr((const volatile char *volatile *)pp);
  o[i++] = t_ref(o[3]);
  o[i++] = t_cref(o[3]);
  o[i++] = t_rref((int &&)o[3]);
  o[i++] = t_ptrref(*pp);
  const char *cc = (const char *)o;
  o[i++] = t_cptrref(cc);
  o[i++] = t_restrict(o);
  o[i++] = t_crestrict((float *)o, (float *)pp);
  o[i++] = t_arrptr((int (*)[4])o);
  o[i++] = t_arrref(*(int (*)[4])o);
  o[i++] = t_carrref(*(float (*)[3][5])o);
  o[i++] = t_arr2d((int (*)[7])o);
  o[i++] = t_arrrref((int (&&)[2]) * (int (*)[2])o);
  o[i++] = t_fnptr(o[5] ? sq : nullptr);
  o[i++] = t_fnptr2(nullptr);
  o[i++] = t_fnptr3(nullptr);
  o[i++] = t_fnptrret(nullptr);
  o[i++] = t_fnref(sq);
  o[i++] = t_fnptrarr((int (**)(int))pp);
  o[i++] = t_fnptrptr((void (**)())pp);
  o[i++] = t_fnnoexcept(nullptr);
  o[i++] = t_memdata(o[7] ? nullptr : nullptr, b);
  o[i++] = t_memfn(nullptr, b);
  o[i++] = t_memfnc(nullptr, b);
  o[i++] = t_memfnv(nullptr);
  o[i++] = t_memarr(nullptr);
  o[i++] = t_struct(*b);
  o[i++] = t_cstructref(*b, o[0]);
  o[i++] = t_ns(*(ns::Inner *)o, (ns::deep::Leaf *)b);
  o[i++] = t_enum((Color)o[0], (Shade)o[1]);
  o[i++] = t_union(*(U *)o);
  o[i++] = t_many(o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7]);
  o[i++] = t_same(b, b, b, *b);
  o[i++] = t_subst((ns::Inner *)o, (ns::Inner *)o, *(ns::deep::Leaf *)o, (ns::deep::Leaf *)o);
  o[i++] = t_ptrconstptr(pp, pp);
  o[i++] = sq3(cc, 1, 2);
}
