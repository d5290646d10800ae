// Members: constructors, destructors, operators, conversions, qualifiers,
// virtual functions, nested and local classes, anonymous namespaces.
#include <new>

#define P __device__ __noinline__

struct Vec {
  float x, y;
  P Vec() : x(0), y(0) {}
  P Vec(float a, float b) : x(a), y(b) {}
  P Vec(const Vec &o) : x(o.x), y(o.y) {}
  P Vec(Vec &&o) : x(o.x), y(o.y) { o.x = 0; }
  P Vec &operator=(const Vec &o) { x = o.x; y = o.y; return *this; }
  P Vec &operator=(Vec &&o) { x = o.x; y = o.y; o.y = 1; return *this; }
  P Vec operator+(const Vec &o) const { return Vec(x + o.x, y + o.y); }
  P Vec operator-(const Vec &o) const { return Vec(x - o.x, y - o.y); }
  P Vec operator-() const { return Vec(-x, -y); }
  P Vec operator*(float s) const { return Vec(x * s, y * s); }
  P Vec &operator+=(const Vec &o) { x += o.x; return *this; }
  P Vec &operator-=(const Vec &o) { x -= o.x; return *this; }
  P Vec &operator*=(float s) { x *= s; return *this; }
  P Vec &operator/=(float s) { x /= s; return *this; }
  P float operator[](int i) const { return i ? y : x; }
  P float &operator[](int i) { return i ? y : x; }
  P float operator()(float a, float b) const { return a * x + b * y; }
  P bool operator==(const Vec &o) const { return x == o.x; }
  P bool operator!=(const Vec &o) const { return x != o.x; }
  P bool operator<(const Vec &o) const { return x < o.x; }
  P bool operator>(const Vec &o) const { return x > o.x; }
  P bool operator<=(const Vec &o) const { return x <= o.x; }
  P bool operator>=(const Vec &o) const { return x >= o.x; }
  P bool operator!() const { return !x; }
  P Vec &operator++() { x++; return *this; }
  P Vec operator++(int) { Vec t = *this; y++; return t; }
  P Vec &operator--() { x--; return *this; }
  P Vec operator--(int) { Vec t = *this; y--; return t; }
  P explicit operator bool() const { return x != 0; }
  P operator float() const { return x + y; }
  P operator const float *() const { return &x; }
  P float *operator&() { return &y; }
  P float operator*() const { return x * y; }
  P Vec *operator->() { return this; }
  P int operator%(int m) const { return (int)x % m; }
  P int operator^(int m) const { return (int)x ^ m; }
  P int operator|(int m) const { return (int)x | m; }
  P int operator&(int m) const { return (int)x & m; }
  P int operator~() const { return ~(int)x; }
  P int operator<<(int m) const { return (int)x << m; }
  P int operator>>(int m) const { return (int)x >> m; }
  P Vec &operator<<=(int m) { x = (int)x << m; return *this; }
  P Vec &operator>>=(int m) { x = (int)x >> m; return *this; }
  P Vec &operator%=(int m) { x = (int)x % m; return *this; }
  P Vec &operator&=(int m) { x = (int)x & m; return *this; }
  P Vec &operator|=(int m) { x = (int)x | m; return *this; }
  P Vec &operator^=(int m) { x = (int)x ^ m; return *this; }
  P bool operator&&(const Vec &o) const { return x && o.x; }
  P bool operator||(const Vec &o) const { return x || o.x; }
  P int operator,(int m) const { return m + (int)x; }
  P float operator->*(float Vec::*m) const { return this->*m; }
  P float len() const volatile { return x; }
  P float lval() & { return x; }
  P float rval() && { return y; }
  P float cref() const & { return x; }
  P static Vec unit(int axis) { return axis ? Vec(0, 1) : Vec(1, 0); }
  P void *operator new(size_t n, void *p) { return p; }
  P void operator delete(void *p, void *) {}
};

P Vec operator*(float s, const Vec &v) { return Vec(v.x * s, v.y * s); }
P bool operator==(const Vec &a, int b) { return a.x == b; }

struct Shape {
  int id;
  P Shape(int i) : id(i) {}
  P virtual ~Shape() {}
  P virtual int sides() const { return 0; }
  P virtual float area() const = 0;
};
struct Square : Shape {
  float s;
  P Square(float a) : Shape(4), s(a) {}
  P ~Square() override { id = 0; }
  P int sides() const override { return 4; }
  P float area() const override { return s * s; }
};
struct Base1 { int a; P virtual int f1() { return a; } };
struct Base2 { int b; P virtual int f2() { return b; } };
struct Multi : Base1, Base2 { P int f2() override { return a + b; } };

namespace geo {
namespace detail {
struct Point {
  int x, y;
  P int dot(const Point &o) const { return x * o.x + y * o.y; }
  struct Cache {
    int v;
    P int get() const { return v; }
  };
};
} // namespace detail
P int norm(detail::Point p) { return p.dot(p); }
P int norm(const detail::Point *p, const detail::Point::Cache &c) { return p->x + c.get(); }
inline namespace v2 {
P int versioned(int x) { return x + 2; }
}
} // namespace geo

namespace {
P float anon(float x) { return x * 2; }
struct Hidden {
  int v;
  P int get() { return v; }
};
} // namespace

static P int file_static(int x) { return x ^ 5; }

P int local_classes(int x) {
  struct Local {
    int v;
    P int twice() const { return 2 * v; }
  };
  struct Other {
    P static int three() { return 3; }
  };
  Local l{x};
  return l.twice() + Other::three();
}
P int local_classes(float x) {
  struct Local {
    float v;
    P int twice() const { return (int)(2 * v); }
  };
  Local l{x};
  return l.twice();
}

__global__ void classes_kernel(float *o, int *io, Shape **shapes) {
  Vec a(o[0], o[1]), b(o[2], o[3]);
  Vec c(a);
  Vec d(static_cast<Vec &&>(b));
  c = a;
  d = static_cast<Vec &&>(c);
  Vec e = a + b - d;
  e = -e * 2.0f;
  e = 3.0f * e;
  e += a; e -= b; e *= 2; e /= 3;
  o[4] = e[0] + a[1] + e(1, 2);
  const Vec &ce = e;
  o[5] = ce[1];
  io[0] = (a == b) + (a != b) + (a < b) + (a > b) + (a <= b) + (a >= b) + !a + (a == 3);
  ++a; a++; --b; b--;
  io[1] = (bool)a;
  o[6] = (float)a;
  o[7] = *(const float *)a;
  o[8] = *&b + *b + b->x;
  io[2] = (a % 3) + (a ^ 3) + (a | 3) + (a & 3) + ~a + (a << 2) + (a >> 1);
  a <<= 1; a >>= 1; a %= 3; a &= 7; a |= 8; a ^= 1;
  io[3] = (a && b) + (a || b) + (a, 5);
  o[9] = a->*(&Vec::y);
  volatile Vec v(1, 2);
  o[10] = v.len() + a.lval() + Vec(1, 2).rval() + b.cref() + Vec::unit(io[4]).x;
  Vec *pv = new (o + 20) Vec(1, 1);
  o[11] = pv->x;
  Vec::operator delete(pv, o);
  Square *sq = new Square(o[12]);
  shapes[0] = sq;
  io[5] = shapes[1]->sides() + (int)shapes[1]->area();
  delete shapes[2];
  Multi *m = new Multi;
  io[6] = m->f1() + m->f2();
  geo::detail::Point p{io[7], io[8]};
  geo::detail::Point::Cache cache{io[9]};
  io[10] = geo::norm(p) + geo::norm(&p, cache) + geo::versioned(io[11]);
  o[13] = anon(o[14]);
  Hidden h{io[12]};
  io[13] = h.get() + file_static(io[14]) + local_classes(io[15]) + local_classes(o[15]);
}
