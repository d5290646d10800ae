__device__ int child_value(int i) { int r = i * 3; return r + 1; }
__device__ int dead_util(int i) { return i - 9; }
