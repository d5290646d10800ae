__managed__ int s[4];
__global__ void k2(int *o) { o[0] = s[o[1]]; }
