__global__ void kg(int *o) { o[0] = 11; }
void launchg(int *o) { kg<<<1, 1>>>(o); }
