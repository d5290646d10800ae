// The kept copy's code again, after it: appended with its entries.
#include "pick.h"
__global__ void k_late(int *p, int x) { p[0] = pick<3>(x, p); }
