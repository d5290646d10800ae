// Scoreboard re-allocation of kernels nvlink re-finalizes on sm_100+
// (src/refinalize.h, docs/notes/refinalization.md).
#include "refinalize.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

using namespace dlink;

namespace {

using Words = std::vector<std::pair<u64, u64>>;

std::vector<u8> bytes_of(const Words &w) {
  std::vector<u8> b;
  for (auto [lo, hi] : w) {
    for (int k = 0; k < 8; k++)
      b.push_back(u8(lo >> (8 * k)));
    for (int k = 0; k < 8; k++)
      b.push_back(u8(hi >> (8 * k)));
  }
  return b;
}

// single_tu's add(float*, const float*, int) at sm_100: ptxas's code (input)
// and nvlink's re-finalized code (expected.cubin).
const Words kInput = {
    {0x0000df00ff017b82ull, 0x000e220000000800ull},
    {0x0000000000007919ull, 0x000e6e0000002100ull},
    {0x00000000000479c3ull, 0x000e620000002500ull},
    {0x00007200ff0577acull, 0x000eae0008000800ull},
    {0x0000d800ff077b82ull, 0x000e640000000800ull},
    {0x0000000407077c24ull, 0x002fca000f8e0200ull},
    {0x0000000507007c0cull, 0x004fda000bf06270ull},
    {0x000000000000094dull, 0x001fea0003800000ull},
    {0x0000e200ff027b82ull, 0x000e220000000a00ull},
    {0x00006b00ff0477acull, 0x000e6e0008000a00ull},
    {0x0000e000ff047b82ull, 0x000ea20000000a00ull},
    {0x0000000407027825ull, 0x001fcc00078e0202ull},
    {0x0000000402027981ull, 0x002ee2000c1e1900ull},
    {0x0000000407047825ull, 0x004fca00078e0204ull},
    {0x0000000404077981ull, 0x000ee4000c1e1900ull},
    {0x0000000702077221ull, 0x008fca0000000000ull},
    {0x0000000704007986ull, 0x000fe2000c101904ull},
    {0x000000000000794dull, 0x000fea0003800000ull},
    {0xfffffffc00fc7947ull, 0x000fc0000383ffffull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
};
const Words kNvlink = {
    {0x0000df00ff017b82ull, 0x000fe20000000800ull},
    {0x0000000000007919ull, 0x000e2e0000002100ull},
    {0x00000000000479c3ull, 0x000e220000002500ull},
    {0x00007200ff0577acull, 0x000e6e0008000800ull},
    {0x0000d800ff077b82ull, 0x000e240000000800ull},
    {0x0000000407077c24ull, 0x001fca000f8e0200ull},
    {0x0000000507007c0cull, 0x002fda000bf06270ull},
    {0x000000000000094dull, 0x000fea0003800000ull},
    {0x0000e200ff027b82ull, 0x000e220000000a00ull},
    {0x00006b00ff0477acull, 0x000e6e0008000a00ull},
    {0x0000e000ff047b82ull, 0x000ea20000000a00ull},
    {0x0000000407027825ull, 0x001fcc00078e0202ull},
    {0x0000000402027981ull, 0x002ee2000c1e1900ull},
    {0x0000000407047825ull, 0x004fca00078e0204ull},
    {0x0000000404077981ull, 0x000ee4000c1e1900ull},
    {0x0000000702077221ull, 0x008fca0000000000ull},
    {0x0000000704007986ull, 0x000fe2000c101904ull},
    {0x000000000000794dull, 0x000fea0003800000ull},
    {0xfffffffc00fc7947ull, 0x000fc0000383ffffull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
    {0x0000000000007918ull, 0x000fc00000000000ull},
};

} // namespace

TEST(Refinalize, ReproducesNvlinkScoreboards) {
  std::vector<u8> code = bytes_of(kInput);
  ASSERT_TRUE(reallocate_scoreboards(code));
  EXPECT_EQ(code, bytes_of(kNvlink));
}

TEST(Refinalize, LeavesKernelWithCallAlone) {
  Words w = kInput;
  w[5].first = (w[5].first & ~u64(0xfff)) | 0x944; // a CALL
  std::vector<u8> code = bytes_of(w), before = code;
  EXPECT_FALSE(reallocate_scoreboards(code));
  EXPECT_EQ(code, before);
}

TEST(Refinalize, LeavesKernelTheModelDoesNotReproduce) {
  Words w = kInput;
  // The LDG at 0xc0 on scoreboard 4 instead of 3: not what the model allocates.
  w[12].second = (w[12].second & ~(u64(7) << 46)) | u64(4) << 46;
  std::vector<u8> code = bytes_of(w), before = code;
  EXPECT_FALSE(reallocate_scoreboards(code));
  EXPECT_EQ(code, before);
}

TEST(Refinalize, NeedsStackPointerLoadFirst) {
  Words w(kInput.begin() + 1, kInput.end());
  std::vector<u8> code = bytes_of(w), before = code;
  EXPECT_FALSE(reallocate_scoreboards(code));
  EXPECT_EQ(code, before);
}
