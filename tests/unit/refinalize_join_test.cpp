// A stack-pointer sharer whose shared wait sits at a predicated EXIT or BRA
// joins another pending index (src/mercury/refinalize.cpp, join_unread_sp_sharer;
// docs/notes/refinalization.md).
#include "mercury/refinalize.h"
#include "sass_words.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

using namespace dlink;

namespace {

using test::Words;
using test::bytes_of;

#include "refinalize_join_data.inc"

} // namespace

// memcpy_3d_device<unsigned long, 0, 0, 0> at sm_100: the LDCU at 0x80 shares
// the stack-pointer load's index, both retired by the predicated EXIT at
// 0x190. nvlink drops that wait and puts the LDCU on the index of the LDCU at
// 0x30 (next wait at 0xb0), not on the one waited at 0x90, the next
// instruction, nor on the free index 5.
TEST(RefinalizeJoin, ExitWaitedSharerJoinsTheFirstWaitAfterTheNextInstruction) {
  auto code = bytes_of(kJoinExitIn);
  ASSERT_TRUE(reallocate_scoreboards(code));
  EXPECT_EQ(code, bytes_of(kJoinExitOut));
}

// cg_grid's k_tiles at sm_100: the S2R at 0xb0 shares the stack-pointer load's
// index, both retired by the predicated BRA at 0x130 (0x1e0 with the padding).
// nvlink puts it on the index of the S2R at 0x10 (waited at 0xd0), not on the
// LDC's waited at 0xc0, the next instruction. With the fence padding removed,
// the whole kernel is nvlink's.
TEST(RefinalizeJoin, BranchWaitedSharerJoinsTheFirstWaitAfterTheNextInstruction) {
  std::vector<u8> in = bytes_of(kJoinTilesIn), want = bytes_of(kJoinTilesOut);
  FenceStrip st = strip_fence_padding(in);
  ASSERT_EQ(st.status, FenceStrip::Stripped);
  ASSERT_EQ(st.code.size(), want.size());
  ASSERT_TRUE(reallocate_scoreboards(in, st.code));
  EXPECT_EQ(st.code, want);
}

// cg_grid's k_tiles at sm_120: the LDCU at 0x120 shares the S2R at 0x40's
// index while all six are pending; the shared wait at 0x140 reads only the
// LDCU. nvlink gives the LDCU the freed index and retires the S2R at the next
// instruction that waits (the predicated BRA at 0x160), not at its first
// reader (0x1b0).
TEST(RefinalizeJoin, S2rOfADissolvedShareWaitsAtTheNextWait) {
  std::vector<u8> in = bytes_of(kTiles120In), want = bytes_of(kTiles120Out);
  FenceStrip st = strip_fence_padding(in);
  ASSERT_EQ(st.status, FenceStrip::Stripped);
  ASSERT_EQ(st.code.size(), want.size());
  ASSERT_TRUE(reallocate_scoreboards(in, st.code));
  EXPECT_EQ(st.code, want);
}
