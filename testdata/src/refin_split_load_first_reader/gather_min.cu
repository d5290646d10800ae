// A gather loop (table lookups through 16-bit indices): at sm_100 ptxas shares
// index 5 between two loads waited on together; nvlink gives them two indices
// and waits for each at its own first reader.
__global__ void gather_min(int *flag, const long *first, const long *count, const unsigned short *pos,
                           const unsigned short *rank, const unsigned short *lut, const int *limit, int rows) {
  __shared__ int part[128];
  int row = blockIdx.x, lane = threadIdx.x;
  if (row >= rows || flag[row] != -2) return;
  part[lane] = 0;
  int lo = first[row];
  int hi = lo + count[row];
  for (int i = lane + lo; i < hi; i += 128)
    part[lane] += min(lut[pos[i]], rank[i]);
  __syncthreads();
  if (lane == 0) {
    for (int k = 1; k < 128; k++) part[0] += part[k];
    flag[row] = part[0] > limit[row] ? -3 : -1;
  }
}
