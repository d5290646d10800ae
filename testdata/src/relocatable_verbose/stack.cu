__device__ __noinline__ int deep(int i){ volatile int a[64]; for(int j=0;j<64;j++) a[j]=j*i; return a[i&63]; }
__global__ void ks(int *o){ o[0]=deep(o[1]); }
__global__ void kr(int *o){ volatile int b[16]; b[o[0]&15]=3; o[1]=b[o[2]&15]; }
