#include "tile.h"
void launch_a(float *o) {
  k_tile<32><<<1, 32>>>(o);
  k_tile<64><<<1, 64>>>(o);
}
