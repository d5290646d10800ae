__device__ int dev_var;
__constant__ int const_var;
static __device__ int static_var;
__global__ void k3(int *p) { p[0] = dev_var + const_var + static_var; }
static __global__ void k3s(int *p) { p[0] = 1; }
extern "C" __global__ void k3c(int *p) { p[0] = 3; }
void launch(int *p) {
  k3<<<1, 1>>>(p);
  k3s<<<1, 1>>>(p);
  k3c<<<1, 1>>>(p);
  int v = 1;
  cudaMemcpyToSymbol(dev_var, &v, sizeof v);
  cudaMemcpyToSymbol(const_var, &v, sizeof v);
  cudaMemcpyToSymbol(static_var, &v, sizeof v);
}
