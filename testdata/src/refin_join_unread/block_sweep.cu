// Block-column sweeps of a compacted parity table: per thread one value,
// updated by the entries listed for its block column (shift, block row). At
// sm_100 and sm_120 ptxas puts a special-register read (S2R) on the index of a
// pending parameter load while only 5 is free and the stack-pointer load is
// pending; the wait that retires both does not read the S2R's register, and
// nvlink gives the S2R an index of its own, waited on at its first reader.
struct Edge { char shift; char brow; };

__global__ void block_sweep_1(float *val, const float *part, const char *degree, const Edge *edges) {
  const int word = blockIdx.y * 3 + threadIdx.y;
  const int bcol = blockIdx.x;
  const int sub = threadIdx.x;
  const int at = (word * 32) + bcol * 48 + sub;
  float acc = val[at];
  const int base = word * 112 + bcol * 7;
  for (int k = 0; k < degree[bcol]; k++) {
    const Edge e = edges[k * 21 + bcol];
    int s = sub - e.shift;
    if (s < 0) s += 48;
    acc += part[base + e.brow * 48 + s];
  }
  val[at] = acc;
}

__global__ void block_sweep_2(float *val, const float *part, const char *degree, const Edge *edges) {
  const int word = blockIdx.y * 4 + threadIdx.y;
  const int bcol = blockIdx.x;
  const int sub = threadIdx.x;
  const int at = (word * 56) + bcol * 64 + sub;
  float acc = val[at];
  const int base = word * 212 + bcol * 7;
  for (int k = 0; k < degree[bcol]; k++) {
    const Edge e = edges[k * 22 + bcol];
    int s = sub - e.shift;
    if (s < 0) s += 64;
    acc += part[base + e.brow * 64 + s];
  }
  val[at] = acc;
}

__global__ void block_sweep_4(float *val, const float *part, const char *degree, const Edge *edges) {
  const int word = blockIdx.y * 3 + threadIdx.y;
  const int bcol = blockIdx.x;
  const int sub = threadIdx.x;
  const int at = (word * 104) + bcol * 96 + sub;
  float acc = val[at];
  const int base = word * 412 + bcol * 7;
  for (int k = 0; k < degree[bcol]; k++) {
    const Edge e = edges[k * 24 + bcol];
    int s = sub - e.shift;
    if (s < 0) s += 96;
    acc += part[base + e.brow * 96 + s];
  }
  val[at] = acc;
}
