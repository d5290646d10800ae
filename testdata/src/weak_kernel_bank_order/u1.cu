#include "t.h"
__global__ void ku1(int *o) { o[0] = scale(o[1]) + (int)scale(1.5f * o[2]) + ftab[o[3] % 3](o[4]) + addk<1>(o[5]); tvar<int> += 1; }
void h1(int *o, const int *a) { combine<Add><<<1, 32>>>(o, a, a);  }
