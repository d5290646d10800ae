// A convolution layer's forward and backward steps written as a flat index
// loop over output elements, each thread splitting the index with divisions
// and accumulating with atomics: global loads in several branches meet at
// the joins.
#define C 6
#define K 5
#define W 28
#define O (W - K + 1)

__global__ void preact(const float in[W][W], float out[C][O][O], const float weight[C][K][K]) {
  const int pos = blockIdx.x * blockDim.x + threadIdx.x;
  const int size = blockDim.x * gridDim.x;
  const int N = K * K * C * O * O;
  for (int n = N * pos / size; n < N * (pos + 1) / size; ++n) {
    int idx = n;
    const int i1 = ((idx /= 1) % K);
    const int i2 = ((idx /= K) % K);
    const int i3 = ((idx /= K) % C);
    const int i4 = ((idx /= C) % O);
    const int i5 = ((idx /= O) % O);
    atomicAdd(&out[i3][i4][i5], weight[i3][i1][i2] * in[i4 + i1][i5 + i2]);
  }
}

__global__ void grad_weight(float dw[C][K][K], const float dout[C][O][O], const float in[W][W]) {
  const int pos = blockIdx.x * blockDim.x + threadIdx.x;
  const int size = blockDim.x * gridDim.x;
  const int N = C * K * K * O * O;
  const float d = 1.0f / (O * O);
  for (int n = N * pos / size; n < N * (pos + 1) / size; ++n) {
    int idx = n;
    const int i1 = ((idx /= 1) % C);
    const int i2 = ((idx /= C) % K);
    const int i3 = ((idx /= K) % K);
    const int i4 = ((idx /= K) % O);
    const int i5 = ((idx /= O) % O);
    atomicAdd(&dw[i1][i2][i3], dout[i1][i4][i5] * in[i4 + i2][i5 + i3] * d);
  }
}
