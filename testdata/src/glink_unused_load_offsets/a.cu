// float4 loads of which one component is unused (ptxas lists them in
// EIATTR_UNUSED_LOAD_BYTE_OFFSET) after an early return.
__global__ void sum3(const float4 *p, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 v = p[i];
  float4 w = p[i + n];
  out[i] = v.x + v.y + v.z + w.x * w.y;
}
