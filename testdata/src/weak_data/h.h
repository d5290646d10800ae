// Weak (COMDAT) data emitted in both TUs: variable templates (one zero-initialised in
// .nv.global, one initialised in .nv.global.init) and the vtable of an inline virtual class.
template <int N> __device__ int counter_v;
template <int N> __device__ int table_v[4] = {N, N + 1, N + 2, N + 3};
struct B { __device__ virtual int f() { return 1; } };
