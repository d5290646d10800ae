__device__ int bar(int x){ return x*3+1; }
