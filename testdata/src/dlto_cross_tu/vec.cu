__device__ float dot3(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
__global__ void dot_kernel(const float *a, const float *b, float *out) { *out = dot3(a, b); }
