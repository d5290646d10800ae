__global__ void k(int* out, int in){
  __shared__ char ss[5]; ss[in % 5] = in; __syncthreads();
  extern __shared__ __align__(16) char dyn[]; dyn[in] = ss[(in+1)%5]; out[0] = dyn[in+1];
}
