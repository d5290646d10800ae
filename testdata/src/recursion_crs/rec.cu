__device__ int rec0(int n){ int a[8]; for(int i=0;i<8;i++) a[i]=n+i; return n<=1?a[n&7]:rec0(n-1)+a[(n*3)&7]; }
