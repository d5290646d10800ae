// Same code as light.cu's pick<3> but linked after it: a dropped copy.
#include "pick.h"
__global__ void k_late(int *p, int x) { p[0] = pick<3>(x, p); }
