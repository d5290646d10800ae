#include "t.h"
__global__ void ku3(int *o) { o[0] = scale(o[1]) + (int)scale(1.5f * o[2]) + ftab[o[3] % 3](o[4]) + addk<3>(o[5]); tvar<int> += 3; }
void h3(int *o, const int *a) { combine<Add><<<1, 32>>>(o, a, a);  }
