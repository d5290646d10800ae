// frame_merge.h: the rows of replaced weak copies merged into the kept copy's
// FDE at its Mercury instruction boundaries (semantics-findings.md §15.5).
#include "mercury/frame_merge.h"

#include <gtest/gtest.h>

using namespace dlink;

namespace {

void put_insn(std::vector<u8> &text, u64 w0, u64 w1 = 0) {
  for (int i = 0; i < 8; i++)
    text.push_back(static_cast<u8>(w0 >> (8 * i)));
  for (int i = 0; i < 8; i++)
    text.push_back(static_cast<u8>(w1 >> (8 * i)));
}

const std::vector<u8> kDefCfa{0x0c, 0x81, 0x80, 0x80, 0x28, 0x00}; // def_cfa r0x5000001, 0

} // namespace

TEST(FrameMerge, DecodeRows) {
  std::vector<u8> p{0x04, 4, 0, 0, 0};
  p.insert(p.end(), kDefCfa.begin(), kDefCfa.end());
  p.insert(p.end(), {0x04, 0xc4, 0x02, 0, 0, 0x00, 0x00, 0x00});
  auto rows = decode_frame_rows(p);
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows->size(), 3u);
  EXPECT_EQ((*rows)[0].loc, 0u);
  EXPECT_TRUE((*rows)[0].ops.empty());
  EXPECT_EQ((*rows)[1].loc, 4u);
  EXPECT_EQ((*rows)[1].ops, kDefCfa);
  EXPECT_EQ((*rows)[2].loc, 4u + 0x2c4);
  EXPECT_TRUE((*rows)[2].ops.empty()); // trailing nops are padding
  // One-byte advances and an instruction this reader does not know.
  auto small = decode_frame_rows(std::vector<u8>{0x50, 0x07, 0x05});
  ASSERT_TRUE(small);
  EXPECT_EQ(small->back().loc, 16u);
  EXPECT_FALSE(decode_frame_rows(std::vector<u8>{0x01, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(FrameMerge, MercurySizes) {
  EXPECT_EQ(mercury_instruction_size(0x0000001804047223, 0), 32u); // FFMA
  EXPECT_EQ(mercury_instruction_size(0x0000001606067221, 0), 16u); // FADD
  EXPECT_EQ(mercury_instruction_size(0xfffffffc00940947, 0), 32u); // BRA
  EXPECT_EQ(mercury_instruction_size(0x000000ffff037224, 0x000fca00078e0005), 16u); // IMAD.MOV
  EXPECT_EQ(mercury_instruction_size(0x000000ffff037224, 0x002fd000000e0607), 32u);
  EXPECT_FALSE(mercury_instruction_size(0x000000ffff037224, 0x0000000012340000));
  EXPECT_FALSE(mercury_instruction_size(0x0000000000007918, 0)); // NOP: not measured
}

TEST(FrameMerge, MercuryToSass) {
  std::vector<u8> text;
  put_insn(text, 0x0000004801017810); // IADD3 imm: 32
  put_insn(text, 0x0000001804047223); // FFMA: 32
  put_insn(text, 0x0000001606067221); // FADD: 16
  put_insn(text, 0x0000001804047223); // FFMA: 32
  put_insn(text, 0x0000000014007950); // RET: 32
  put_insn(text, 0xfffffffc00fc7947); // BRA self (not in the Mercury code)
  const u64 range = 144;
  bool det = false;
  EXPECT_EQ(mercury_to_sass_offset(0, text, range, {}, &det), 0u);
  EXPECT_EQ(mercury_to_sass_offset(32, text, range, {}, &det), 0x10u);
  EXPECT_FALSE(mercury_to_sass_offset(48, text, range, {}, &det)); // inside the FFMA
  EXPECT_TRUE(det);
  EXPECT_EQ(mercury_to_sass_offset(64, text, range, {}, &det), 0x20u);
  EXPECT_EQ(mercury_to_sass_offset(112, text, range, {}, &det), 0x40u);
  EXPECT_EQ(mercury_to_sass_offset(144, text, range, {}, &det), 0x50u); // the end of the code
  EXPECT_FALSE(mercury_to_sass_offset(160, text, range, {}, &det));
  EXPECT_TRUE(det);
  // An unknown size on the way: the anchor after it walks back instead.
  std::vector<u8> t2;
  put_insn(t2, 0x0000000000007918); // unknown
  put_insn(t2, 0x0000001804047223); // FFMA: 32
  put_insn(t2, 0x0000001606067221); // FADD: 16
  EXPECT_FALSE(mercury_to_sass_offset(40, t2, 200, {}, &det));
  EXPECT_FALSE(det);
  EXPECT_EQ(mercury_to_sass_offset(40, t2, 200, {{0x30, 88}}, &det), 0x10u);
  EXPECT_EQ(mercury_to_sass_offset(72, t2, 200, {{0x30, 88}}, &det), 0x20u);
  // Anchors that contradict the known sizes: nothing is placed.
  EXPECT_FALSE(mercury_to_sass_offset(72, t2, 200, {{0x10, 40}, {0x30, 100}}, &det));
  EXPECT_FALSE(det);
}

TEST(FrameMerge, MergeRows) {
  std::vector<FrameRow> kept{{0, {}}, {4, kDefCfa}, {0x38, {0x07, 0x05}}};
  std::vector<FrameRow> added{{0, {0x07, 0x09}}, {4, {0x07, 0x01}}, {0x20, {}}, {0x40, {0x07, 0x02}}};
  std::vector<u8> p = merge_frame_rows(kept, added, 36);
  std::vector<u8> want{0x07, 0x09, 0x04, 4, 0, 0, 0};
  want.insert(want.end(), kDefCfa.begin(), kDefCfa.end()); // the kept row wins at 4
  want.insert(want.end(), {0x04, 0x1c, 0, 0, 0, 0x04, 0x18, 0, 0, 0, 0x07, 0x05});
  want.insert(want.end(), {0x04, 0x08, 0, 0, 0, 0x07, 0x02});
  while ((36 + want.size()) % 8)
    want.push_back(0);
  EXPECT_EQ(p, want);
}

TEST(FrameMerge, Uleb128ReaderStopsAtTheEnd) {
  const std::vector<u8> d = {0xe5, 0x8e, 0x26, 0x7f, 0x80, 0x80};
  size_t pos = 0;
  EXPECT_EQ(read_uleb128(d, pos, d.size()), u64{624485});
  EXPECT_EQ(pos, 3u);
  EXPECT_EQ(read_uleb128(d, pos, d.size()), u64{0x7f});
  EXPECT_FALSE(read_uleb128(d, pos, d.size()).has_value()); // truncated
  pos = 0;
  EXPECT_FALSE(read_uleb128(d, pos, 2).has_value()); // `end` before the last byte
  const std::vector<u8> too_long(11, 0x80);
  pos = 0;
  EXPECT_FALSE(read_uleb128(too_long, pos, too_long.size()).has_value());
}
