__device__ int beta(int x, int y) { return (x << 2) | (y & 0xff); }
