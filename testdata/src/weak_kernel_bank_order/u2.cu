#include "t.h"
__global__ void ku2(int *o) { o[0] = scale(o[1]) + (int)scale(1.5f * o[2]) + ftab[o[3] % 3](o[4]) + addk<2>(o[5]); tvar<int> += 2; }
void h2(int *o, const int *a) { combine<Add><<<1, 32>>>(o, a, a); combine<Mul><<<1, 32>>>(o, a, a); }
