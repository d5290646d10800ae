__device__ long long local_total;             // uninitialised, this TU only
__device__ unsigned lookup[5] = {2, 3, 5, 7, 11};

__global__ void use(long long *out) {
  local_total += lookup[threadIdx.x % 5];
  out[threadIdx.x] = local_total;
}
