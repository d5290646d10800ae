// A switch compiled to a jump table in the kernel's .nv.constant2.<k>; on
// sm_90 ptxas also writes an empty .rela.nv.constant2.<k>, which leaves no
// output section and no name behind.
__global__ void k(float *o, int m) {
  float x = o[threadIdx.x];
  switch (m) {
  case 0: x = x * 3.f; break;
  case 1: x = sinf(x); break;
  case 2: x = cosf(x); break;
  case 3: x = x + 9.f; break;
  case 4: x = sqrtf(x); break;
  case 5: x = x * x; break;
  case 6: x = expf(x); break;
  case 7: x = logf(x); break;
  }
  o[threadIdx.x] = x;
}
