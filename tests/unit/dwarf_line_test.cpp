// The line-number unit reader (src/elf/dwarf_line.h) shared by the merge's
// sequence filter and the re-finalized kernels' address rewriting.
#include "elf/dwarf_line.h"

#include <gtest/gtest.h>

#include <vector>

using namespace dlink;

namespace {

// A version-2 unit: min_inst_length 1, line_range 14, opcode_base 10, the
// standard lengths, no directories or files, then `program`.
void unit(std::vector<u8> &v, const std::vector<u8> &program) {
  std::vector<u8> h = {1, 1, u8(-5), 14, 10, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0};
  u32 header_length = static_cast<u32>(h.size());
  u32 unit_length = 2 + 4 + header_length + static_cast<u32>(program.size());
  for (int i = 0; i < 4; i++)
    v.push_back(static_cast<u8>(unit_length >> (8 * i)));
  v.insert(v.end(), {2, 0});
  for (int i = 0; i < 4; i++)
    v.push_back(static_cast<u8>(header_length >> (8 * i)));
  v.insert(v.end(), h.begin(), h.end());
  v.insert(v.end(), program.begin(), program.end());
}

} // namespace

TEST(DwarfLine, UnitsAndTheOneHoldingAnOffset) {
  std::vector<u8> d;
  unit(d, {0, 1, 1});          // end_sequence
  size_t second = d.size();
  unit(d, {2, 4, 0, 1, 1});    // advance_pc 4, end_sequence
  auto a = line_unit_at(d, 0);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->end, second);
  EXPECT_EQ(a->program, second - 3);
  EXPECT_EQ(a->min_inst_length, 1);
  EXPECT_EQ(a->line_range, 14);
  EXPECT_EQ(a->opcode_base, 10);
  ASSERT_EQ(a->standard_opcode_lengths.size(), 9u);
  EXPECT_EQ(a->standard_opcode_lengths[1], 1); // advance_pc: one operand
  auto b = line_unit_holding(d, d.size() - 1);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->start, second);
  EXPECT_EQ(b->end, d.size());
  EXPECT_EQ(line_unit_holding(d, d.size()), std::nullopt);
}

TEST(DwarfLine, RefusesWhatDoesNotFit) {
  std::vector<u8> d;
  unit(d, {0, 1, 1});
  std::vector<u8> cut(d.begin(), d.end() - 1);
  EXPECT_EQ(line_unit_at(cut, 0), std::nullopt);
  std::vector<u8> wide = d;
  wide[0] = wide[1] = wide[2] = wide[3] = 0xff; // 64-bit DWARF
  EXPECT_EQ(line_unit_at(wide, 0), std::nullopt);
}
