__constant__ int s[8];
__global__ void k(int *o) { o[0] = s[o[1]]; }
