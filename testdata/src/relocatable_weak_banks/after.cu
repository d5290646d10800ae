// A heavy copy after the kept one: its bank is appended (sm_100+: its
// jump-table entries, other code than the kept copy's, become zeros).
#define HEAVY
#include "pick.h"
__global__ void k_after(int *p, int x) { p[0] = pick<3>(x, p); }
