extern __device__ int defined_here(int x);
extern __device__ int defined_nowhere(int x);
extern __device__ int missing_table[4];
__global__ void uses_missing(int *p) { p[threadIdx.x] = defined_nowhere(defined_here(missing_table[threadIdx.x & 3])); }
int main() {
  uses_missing<<<1, 4>>>(nullptr);
  return 0;
}
