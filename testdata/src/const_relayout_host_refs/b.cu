// The host launches k2 and copies into ch (listed in .nvHRCE): cb, cc and
// ch stay (cb at 0, ch at 20, cc at 27), ca and cx go; k3 is pruned.
__constant__ int cb[4];
__constant__ char cc[3];
__constant__ char ch[5];
__global__ void k2(int *o) { o[threadIdx.x] = cb[threadIdx.x] + cc[threadIdx.x]; }
__global__ void k3(int *o) { o[threadIdx.x] = ch[threadIdx.x]; }
int main() {
  int *o = 0;
  k2<<<1, 1>>>(o);
  char h[5] = {0};
  cudaMemcpyToSymbol(ch, h, 5);
  return 0;
}
