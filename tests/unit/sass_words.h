// Test helper: SASS instructions (sm_100+, 16 bytes each) written as pairs of
// little-endian 64-bit words, as they appear in a .text section.
#pragma once

#include "dlink/common.h"

#include <utility>
#include <vector>

namespace dlink::test {

using Words = std::vector<std::pair<u64, u64>>;

inline std::vector<u8> bytes_of(const Words &w) {
  std::vector<u8> b;
  for (auto [lo, hi] : w) {
    for (int k = 0; k < 8; k++)
      b.push_back(u8(lo >> (8 * k)));
    for (int k = 0; k < 8; k++)
      b.push_back(u8(hi >> (8 * k)));
  }
  return b;
}

} // namespace dlink::test
