__global__ void s(int *o) { o[0] = 1; }
