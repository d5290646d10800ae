// Five equal-size arrays used by the same two kernels: they land in neither
// declaration order nor its reverse.
__shared__ int P[16];
__shared__ int Q[16];
__shared__ int R[16];
__shared__ int S[16];
__shared__ int T[16];
__global__ void kp(int *o) {
  P[threadIdx.x] = 1; Q[threadIdx.x] = 2; R[threadIdx.x] = 3; S[threadIdx.x] = 4; T[threadIdx.x] = 5;
  __syncthreads();
  o[0] = P[1] + Q[2] + R[3] + S[4] + T[5];
}
__global__ void kq(int *o) {
  T[threadIdx.x] = 1; S[threadIdx.x] = 2; R[threadIdx.x] = 3; Q[threadIdx.x] = 4; P[threadIdx.x] = 5;
  __syncthreads();
  o[0] = P[5] + Q[4] + R[3] + S[2] + T[1];
}
// L1/L2 are used by kl alone: they are sorted together with kl's own arrays
// (larger alignment first, then smaller size), after kl's program-wide P.
__shared__ char L1[3];
__shared__ int L2[8];
__global__ void kl(int *o) {
  __shared__ double d[2];
  __shared__ int s[4];
  __shared__ char c[5];
  L1[threadIdx.x] = 1; L2[threadIdx.x] = 2; d[threadIdx.x] = 3; s[threadIdx.x] = 4; c[threadIdx.x] = 5;
  P[threadIdx.x] = 6;
  __syncthreads();
  o[0] = L1[1] + L2[2] + (int)d[1] + s[3] + c[4] + P[5];
}
