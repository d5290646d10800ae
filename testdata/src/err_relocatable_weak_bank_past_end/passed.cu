// As heavy as the first copy, before the kept one: it never holds pick<3>.
#define HEAVY
#include "pick.h"
__global__ void k_passed(int *p, int x) { p[0] = pick<3>(x, p); }
