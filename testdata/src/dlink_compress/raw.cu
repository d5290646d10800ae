__device__ int raw_value(int x) { return x ^ 0x55; }
