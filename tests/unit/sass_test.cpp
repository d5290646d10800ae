// The sm_100+ SASS instruction decoder shared by the re-finalization and the
// frame merging (src/mercury/sass.h).
#include "mercury/sass.h"

#include "sass_words.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace dlink {
namespace {

TEST(Sass, DecodesFieldsAndRoundTrips) {
  // LDC R1, c[0x0][0x37c] with write scoreboard 0; BRA to itself.
  const test::Words words = {{0x0000df00ff017b82, 0x000e220000000800},
                             {0xfffffffc00fc7947, 0x000fc0000383ffff}};
  std::vector<u8> bytes = test::bytes_of(words);
  std::vector<sass::Instruction> I = sass::decode(bytes);
  ASSERT_EQ(I.size(), 2u);
  EXPECT_EQ(I[0].op(), sass::op::kLdc);
  EXPECT_EQ(I[0].pred(), sass::kNone);
  EXPECT_EQ(I[0].dest(), 1u);
  EXPECT_EQ(I[0].wr(), 0u);
  EXPECT_EQ(I[0].rd(), sass::kNone);
  EXPECT_EQ(I[0].wait(), 0u);
  EXPECT_EQ(I[1].op(), sass::op::kBra);
  EXPECT_TRUE(sass::is_branch(I[1]));
  EXPECT_FALSE(sass::is_call(I[1]));
  EXPECT_EQ(sass::bra_offset(I[1].lo), -4);
  EXPECT_EQ(sass::branch_target(1, I[1], 2), std::optional<size_t>(1));
  EXPECT_EQ(sass::encode(I), bytes);
}

TEST(Sass, RewritesControlsAndBranchOffsets) {
  sass::Instruction f{0x0000df00ff017b82, 0x000e220000000800};
  sass::Instruction g = f.with_controls(3, 7, 0x21);
  EXPECT_EQ(g.lo, f.lo);
  EXPECT_EQ(g.wr(), 3u);
  EXPECT_EQ(g.rd(), 7u);
  EXPECT_EQ(g.wait(), 0x21u);
  EXPECT_EQ(g.operands_hi(), f.operands_hi());
  EXPECT_EQ(g.hi & ~(u64(0xfff) << 46), f.hi & ~(u64(0xfff) << 46));

  u64 bra = 0xfffffffc00fc7947;
  for (int64_t off : {-4, 0, 4, 0x40, -0x1000, 0x7fff0}) {
    auto lo = sass::set_bra_offset(bra, off);
    ASSERT_TRUE(lo) << off;
    EXPECT_EQ(sass::bra_offset(*lo), off);
    EXPECT_EQ(*lo & 0xffff, bra & 0xffff); // opcode, predicate, register untouched
  }
  // BSSY: a signed byte offset in the high half.
  EXPECT_EQ(sass::bssy_offset(0x0000015000007945), 0x150);
  EXPECT_EQ(sass::bssy_offset(0xffffffe000007945), -0x20);
}

TEST(Sass, BitSetsAndRowsAgree) {
  // 130 bits: three words, the last partly used.
  sass::Bits a(130);
  for (size_t i : {0, 63, 64, 129})
    a.set(i);
  std::vector<size_t> seen;
  a.for_each_set([&](size_t i) { seen.push_back(i); });
  EXPECT_EQ(seen, (std::vector<size_t>{0, 63, 64, 129}));

  sass::BitRows rows(3, 130);
  rows[1] = a; // the bits are copied into row 1; rows 0 and 2 stay empty
  EXPECT_TRUE(rows[1] == a);
  EXPECT_FALSE(rows[0] == a);
  EXPECT_TRUE(rows[1].test(129));
  EXPECT_FALSE(rows[2].test(129));
  sass::Bits copy = std::as_const(rows)[1];
  EXPECT_EQ(copy, a);

  sass::Bits b(130);
  b.set(5);
  b |= std::as_const(rows)[1];
  seen.clear();
  b.for_each_set([&](size_t i) { seen.push_back(i); });
  EXPECT_EQ(seen, (std::vector<size_t>{0, 5, 63, 64, 129}));
  b.clear();
  seen.clear();
  b.for_each_set([&](size_t i) { seen.push_back(i); });
  EXPECT_TRUE(seen.empty());
}

// A store's read scoreboard guards its sources until the store has read them:
// only an instruction that may overwrite one waits for it. From the ptxas code
// of golden case refin_store_read_round_loop (sm_100): the STS at 0x5d0
// stores R7 at [R0]; the LDS at 0x170 reads R0 and writes R5, the 0x890 at
// 0x180 writes R4 only (measured_width), the LDS at 0x190 writes R7 (nvlink
// waits there).
TEST(Sass, AStoresSourcesWaitOnlyForAnOverwrite) {
  const sass::Instruction sts{0x000b800700008388, 0x0001e20000000800};
  const sass::Instruction lds_r5{0x0004000000057984, 0x003e220000000800};
  const sass::Instruction add_r4{0x0000000104047890, 0x000fc6000fffe0ff};
  const sass::Instruction lds_r7{0x0008000000077984, 0x000e620000000800};
  auto guard = sass::guarded_registers(sts, true);
  ASSERT_TRUE(guard);
  EXPECT_TRUE(guard->general.test(0));
  EXPECT_TRUE(guard->general.test(7));
  EXPECT_EQ(guard->general.count(), 2u);
  // The LDS names the address but does not overwrite it.
  EXPECT_TRUE(sass::names_guarded(lds_r5, *guard));
  EXPECT_FALSE(sass::must_wait_for_guarded(lds_r5, *guard, true));
  EXPECT_FALSE(sass::must_wait_for_guarded(add_r4, *guard, true));
  EXPECT_TRUE(sass::must_wait_for_guarded(lds_r7, *guard, true));
  // The same 0x890 writing R7 waits; so does a DADD (0x229, no measured
  // width) writing R4, whose aligned span R4-R7 reaches R7.
  EXPECT_TRUE(sass::must_wait_for_guarded({0x0000000107077890, 0x000fc6000fffe0ff}, *guard, true));
  EXPECT_TRUE(sass::must_wait_for_guarded({0x0000000004047229, 0x000fe20000000008}, *guard, true));
  // A load's result: any instruction naming it waits (the LDS at 0x190's R7,
  // named by the store), 0x890's R4 does not reach R5.
  auto result = sass::guarded_registers(lds_r5, false);
  ASSERT_TRUE(result);
  EXPECT_FALSE(sass::must_wait_for_guarded(add_r4, *result, false));
  EXPECT_TRUE(sass::must_wait_for_guarded(sts, *sass::guarded_registers(lds_r7, false), false));
}

// Operand widths measured on ptxas's code (kOperandWidths): where a byte's
// aligned span reaches a pending load result it does not name, ptxas never
// waits for 0x890's destination or ISETP's (0x20c) second operand beyond one
// register, nor the ISETP's first beyond two; IMAD.WIDE's (0x825) pair in
// bits 64-71 is not narrowed, nor is anything not measured.
TEST(Sass, MeasuredOperandWidthsNarrowTheAlignedSpan) {
  EXPECT_EQ(sass::measured_width(0x890, 2), 1u);
  EXPECT_EQ(sass::measured_width(0x20c, 4), 1u);
  EXPECT_EQ(sass::measured_width(0x20c, 3), 2u);
  EXPECT_EQ(sass::measured_width(0x825, 8), 4u);
  EXPECT_EQ(sass::measured_width(0x229, 2), 4u);
  // ISETP of R8 (bits 24-31) and R5: R10 is not named, R9 is.
  const sass::Instruction isetp{0x000000050800720c, 0x000fe20003f06270};
  sass::RegisterSet r10, r9;
  r10.set(10);
  r9.set(9);
  EXPECT_FALSE(sass::operand_names_register(isetp, r10, false));
  EXPECT_TRUE(sass::operand_names_register(isetp, r9, false));
}

// Uniform operands by form (uniform_operand_bytes): in golden case
// refin_region_ldcu_share (sm_100) the LDCU at 0xb0 loads UR11; the IMAD at
// 0xf0 (0xc24) names R10 in bits 24-31, a general register, and UR4 in bits
// 32-39; the ISETP at 0x100 (0xc0c) reads UR11 there. A form not decoded
// (0x856) keeps the aligned span of every byte.
TEST(Sass, UniformOperandsByForm) {
  const sass::Instruction ldcu{0x00007200ff0b77ac, 0x000ea20008000800};
  const sass::Instruction imad{0x000000040a0a7c24, 0x004fca000f8e020b};
  const sass::Instruction isetp{0x0000000b0a007c0c, 0x000fe20008706670};
  auto ur11 = sass::guarded_registers(ldcu, false);
  ASSERT_TRUE(ur11);
  EXPECT_TRUE(ur11->uniform.test(11));
  EXPECT_EQ(sass::uniform_operand_bytes(imad), std::optional<unsigned>(1u << 4));
  EXPECT_FALSE(sass::names_guarded(imad, *ur11));
  EXPECT_TRUE(sass::names_guarded(isetp, *ur11));
  EXPECT_EQ(sass::uniform_operand_bytes(ldcu), std::optional<unsigned>(0u));
  // Uniform widths are measured on their own: 0xc24's uniform operand reaches
  // a pair at times (UR4 names UR5 too), 0xc0c's does not.
  EXPECT_EQ(sass::measured_width(0xc24, 4, true), 2u);
  EXPECT_EQ(sass::measured_width(0xc0c, 4, true), 1u);
  sass::RegisterSet ur5;
  ur5.set(5);
  EXPECT_TRUE(sass::operand_names_register(imad, ur5, true));
  EXPECT_EQ(sass::uniform_operand_bytes({0x000000000a0a7856, 0x0000000000000000}), std::nullopt);
  EXPECT_TRUE(sass::names_guarded({0x000000000a0a7856, 0x0000000000000000}, *ur11));
}

} // namespace
} // namespace dlink
