__global__ void k(float *p, const float *q, int n) {
  __shared__ float s[256];
  float acc = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) { acc += q[i] * q[i + 1]; if (acc > 10.f) { __threadfence(); p[i] = acc; } }
  s[threadIdx.x] = acc; __syncthreads();
  if (threadIdx.x == 0) { float t = 0; for (int j = 0; j < 256; j++) t += s[j]; atomicAdd(p, t); __threadfence_system(); p[1] = t; }
}
