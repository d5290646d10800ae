struct Desc { int *a; float *b; int n; };
extern __device__ int *p_a;
extern __device__ float *p_arr_mid;
extern __device__ const double *p_c;
extern __device__ Desc desc;

__global__ void deref(float *out) {
  *p_a += 1;
  out[threadIdx.x] = p_arr_mid[threadIdx.x & 3] + (float)p_c[threadIdx.x & 1] + desc.b[desc.n - 1] + *desc.a;
}
