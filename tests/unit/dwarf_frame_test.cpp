// The .debug_frame entry reader (src/elf/dwarf_frame.h) shared by the merge,
// the relocations and the re-finalized kernels.
#include "elf/dwarf_frame.h"

#include <gtest/gtest.h>

#include <vector>

using namespace dlink;

namespace {

void put32(std::vector<u8> &v, u32 x) {
  for (int i = 0; i < 4; i++)
    v.push_back(static_cast<u8>(x >> (8 * i)));
}
void put64(std::vector<u8> &v, u64 x) {
  for (int i = 0; i < 8; i++)
    v.push_back(static_cast<u8>(x >> (8 * i)));
}

// A 64-bit CIE (version 3, augmentation "", code alignment `caf`, data
// alignment 4, return register 0) padded to 32 bytes of body.
void cie64(std::vector<u8> &v, u8 caf) {
  put32(v, 0xffffffffu);
  put64(v, 32);
  put64(v, ~u64{0});
  v.insert(v.end(), {3, 0, caf, 4, 0});
  v.resize(v.size() + 32 - 13, 0);
}

// A 64-bit FDE pointing at the CIE at `cie`, with a 40-byte body.
void fde64(std::vector<u8> &v, u64 cie) {
  put32(v, 0xffffffffu);
  put64(v, 40);
  put64(v, cie);
  v.resize(v.size() + 32, 0);
}

} // namespace

TEST(DwarfFrame, EntriesOfBothFormats) {
  std::vector<u8> d;
  cie64(d, 4);   // 0..44
  fde64(d, 0);   // 44..96
  put32(d, 12);  // 32-bit CIE at 96
  put32(d, 0xffffffffu);
  d.resize(d.size() + 8, 0);
  put32(d, 8);   // 32-bit FDE at 112
  put32(d, 96);
  d.resize(d.size() + 4, 0);
  std::vector<FrameEntry> e = parse_frame_entries(d);
  ASSERT_EQ(e.size(), 4u);
  EXPECT_TRUE(e[0].cie);
  EXPECT_EQ(e[0].end, 44u);
  EXPECT_FALSE(e[1].cie);
  EXPECT_EQ(e[1].cie_ref, 0u);
  EXPECT_EQ(e[1].end, 96u);
  EXPECT_TRUE(e[2].cie);
  EXPECT_FALSE(e[3].cie);
  EXPECT_EQ(e[3].cie_ref, 96u);
  EXPECT_EQ(e[3].end, d.size());
  EXPECT_EQ(frame_entry_length(d, 44), 52u);
  EXPECT_EQ(preceding_cie(d, 44), 0u);
  EXPECT_EQ(preceding_cie(d, 112), 96u);
  EXPECT_EQ(preceding_cie(d, 0), std::nullopt);
  auto h = frame_entry_header(d, 44);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->header, 12u);
  EXPECT_EQ(h->id, 0u);
  EXPECT_FALSE(h->cie);
}

TEST(DwarfFrame, CodeAlignmentAndTruncation) {
  std::vector<u8> d;
  cie64(d, 8);
  EXPECT_EQ(cie_code_alignment(d, 0), 8u);
  fde64(d, 0);
  d.resize(d.size() - 1); // the FDE no longer fits: only the CIE is listed
  EXPECT_EQ(parse_frame_entries(d).size(), 1u);
  EXPECT_EQ(frame_entry_header(d, d.size() - 4), std::nullopt);
}
