__global__ void kk(int *p){ p[0]=p[1]+1; }
