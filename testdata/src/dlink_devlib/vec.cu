// Used by main.cu's kernel.
__device__ float dot3(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
__device__ float norm2(const float *a) { return dot3(a, a); }
