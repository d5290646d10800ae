// dlink-diff's explanation of differing machine code: scheduling controls
// (bits 105-127 of a 16-byte instruction) are told apart from the
// instruction bits.
#include "lib/cubin_diff.h"

#include <gtest/gtest.h>

#include <array>
#include <sstream>
#include <vector>

using namespace dlink;

namespace {

// Two instructions: an LDC with write scoreboard 0, and an EXIT waiting on it.
std::vector<u8> two_instructions() {
  return {0x82, 0x7b, 0x01, 0xff, 0x00, 0xdf, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00,
          0x00, 0x22, 0x0e, 0x00, // stall 1, yield, wr=SB0
          0x4d, 0x79, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x03,
          0x00, 0xea, 0x1f, 0x00}; // stall 5, yield, wait SB0
}

ElfFile file_with_text(const std::vector<u8> &code) {
  ElfFile f;
  f.sections.resize(2);
  ElfSection &text = f.sections[1];
  text.name = ".text.k";
  text.type = SHT_PROGBITS;
  text.flags = SHF_ALLOC | SHF_EXECINSTR;
  text.size = code.size();
  text.data = code;
  return f;
}

std::string diff_text(const std::vector<u8> &a, const std::vector<u8> &b) {
  ElfFile fa = file_with_text(a), fb = file_with_text(b);
  std::ostringstream out;
  EXPECT_TRUE(diff_cubins(fa, fb, out));
  return out.str();
}

} // namespace

TEST(CubinDiff, SchedulingControlsOnly) {
  std::vector<u8> a = two_instructions(), b = a;
  b[13] = 0xe2; // drop the write scoreboard: wr=7
  b[14] = 0x0f;
  b[16 + 14] = 0x0f; // no wait
  std::string text = diff_text(a, b);
  EXPECT_NE(text.find("2 of 2 instructions differ; 2 of them only in scheduling controls"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("A: stall=1 yield wr=SB0\n      B: stall=1 yield\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("A: stall=5 yield wait=SB0\n      B: stall=5 yield\n"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("instruction bits differ"), std::string::npos) << text;
}

TEST(CubinDiff, InstructionBitsDiffer) {
  std::vector<u8> a = two_instructions(), b = a;
  b[2] = 0x02; // destination register R2 instead of R1
  std::string text = diff_text(a, b);
  EXPECT_NE(text.find("1 of 2 instructions differ; 0 of them only in scheduling controls"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("+0x0000 (instruction bits differ too)"), std::string::npos) << text;
}

TEST(CubinDiff, ControlBoundaryBit104IsAnInstructionBit) {
  // Byte 13 bit 0 is bit 104, below the controls.
  std::vector<u8> a = two_instructions(), b = a;
  b[13] ^= 0x01;
  EXPECT_NE(diff_text(a, b).find("0 of them only in scheduling controls"), std::string::npos);
}
