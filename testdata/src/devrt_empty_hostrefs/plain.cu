__global__ void ke(int *o) { o[0] = 9; }
