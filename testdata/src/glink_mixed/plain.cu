__device__ int from_plain(int x) { return x * 5 + 2; }
__device__ int plain_dead(int x) { return x - 4; }
