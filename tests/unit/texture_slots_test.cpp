// Unit tests for the slot order of bound texture/sampler/surface references.
// The expected orders are nvlink 13.0.88's for n texrefs declared x1..xn in
// one PTX file (docs/notes/semantics-findings.md §7), written as declaration
// numbers by slot; the list the permutation applies to is xn..x1.
#include "texture_slots.h"

#include <gtest/gtest.h>

namespace {

std::vector<dlink::u32> declaration_order(dlink::u32 n) {
  std::vector<dlink::u32> out;
  for (dlink::u32 i : dlink::texture_slot_permutation(n))
    out.push_back(n - i);
  return out;
}

TEST(TextureSlots, MeasuredOrders) {
  using V = std::vector<dlink::u32>;
  EXPECT_EQ(declaration_order(1), (V{1}));
  EXPECT_EQ(declaration_order(2), (V{2, 1}));
  EXPECT_EQ(declaration_order(3), (V{1, 3, 2}));
  EXPECT_EQ(declaration_order(5), (V{5, 1, 3, 2, 4}));
  EXPECT_EQ(declaration_order(7), (V{5, 1, 7, 3, 6, 2, 4}));
  EXPECT_EQ(declaration_order(12), (V{2, 10, 6, 4, 12, 8, 1, 9, 5, 3, 11, 7}));
  EXPECT_EQ(declaration_order(16), (V{6, 14, 2, 10, 8, 16, 4, 12, 5, 13, 1, 9, 7, 15, 3, 11}));
  EXPECT_EQ(declaration_order(21), (V{21, 5, 13, 17, 1, 9, 19, 3, 11, 7, 15, 18, 2, 10, 6, 14,
                                      20, 4, 12, 8, 16}));
}

} // namespace
