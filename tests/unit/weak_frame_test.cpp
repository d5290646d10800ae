// sm_100+ .debug_frame of a weak function whose kept copy comes from a later
// input (docs/notes/semantics-findings.md §15.2), on the weak_regs inputs:
// wide.cubin's mix<float> (86 registers) loses to narrow.cubin's (32).
#include "dlink/elf.h"
#include "link_runner.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace dlink;

namespace {

const fs::path kJob = fs::path(DLINK_TESTDATA) / "golden" / "weak_regs" / "sm_100";

using test::read_bytes;

struct Entry {
  u64 start, size;
  bool cie;
  u8 code_align = 0; // CIE
  u64 range = 0;     // FDE
};

std::vector<Entry> frame_entries(const std::vector<u8> &cubin, std::string_view section) {
  ElfFile elf = read_elf(cubin);
  auto idx = elf.find_section(section);
  EXPECT_TRUE(idx.has_value()) << section;
  std::vector<Entry> out;
  if (!idx)
    return out;
  const auto &d = elf.sections[*idx].data;
  for (u64 pos = 0; pos + 20 <= d.size();) {
    EXPECT_EQ(read_le<u32>(d.data() + pos), 0xffffffffu); // 64-bit DWARF
    u64 len = read_le<u64>(d.data() + pos + 4);
    bool cie = read_le<u64>(d.data() + pos + 12) == ~u64{0};
    Entry e{pos, 12 + len, cie};
    if (cie)
      e.code_align = d[pos + 22];
    else
      e.range = read_le<u64>(d.data() + pos + 28);
    out.push_back(e);
    pos += 12 + len;
  }
  return out;
}

std::vector<u8> link_job(const std::vector<std::string> &inputs, const fs::path &out) {
  std::vector<std::string> args{"nvlink", "-arch=sm_100"};
  for (const std::string &in : inputs)
    args.push_back((kJob / in).string());
  return test::link_output(args, out);
}

fs::path temp_output(const char *tag) {
  return fs::temp_directory_path() / ("dlink_weak_frame_" + std::to_string(::getpid()) + tag);
}

} // namespace

TEST(WeakFrame, LaterWinnerFillsFirstSlotAndLeavesMercuryStub) {
  ASSERT_TRUE(fs::exists(kJob / "wide.cubin"));
  std::vector<u8> narrow = read_bytes(kJob / "narrow.cubin");
  std::vector<Entry> narrow_sass = frame_entries(narrow, ".debug_frame");
  std::vector<Entry> narrow_merc = frame_entries(narrow, ".nv.merc.debug_frame");
  ASSERT_EQ(narrow_sass.size(), 4u); // mix<float> CIE+FDE, k_narrow CIE+FDE
  ASSERT_EQ(narrow_merc.size(), 4u);

  std::vector<Entry> out = frame_entries(link_job({"wide.cubin", "narrow.cubin"}, temp_output("a")),
                                         ".debug_frame");
  // wide: mix<int>, k_wide_i, mix<float>, k_wide; narrow: mix<float>, k_narrow.
  ASSERT_EQ(out.size(), 12u);
  // wide's mix<float> slot holds narrow's SASS CIE and FDE.
  EXPECT_EQ(out[4].size, narrow_sass[0].size);
  EXPECT_EQ(out[4].code_align, narrow_sass[0].code_align);
  EXPECT_EQ(out[5].size, narrow_sass[1].size);
  EXPECT_EQ(out[5].range, narrow_sass[1].range);
  // narrow's own slot: its Mercury CIE (code alignment 1) and a 0x28-byte
  // FDE with the Mercury range.
  EXPECT_EQ(out[8].code_align, 1);
  EXPECT_EQ(out[8].size, narrow_merc[0].size);
  EXPECT_EQ(out[9].size, 0x28u);
  EXPECT_EQ(out[9].range, narrow_merc[1].range);
}

TEST(WeakFrame, EarlierWinnerDropsLaterCopy) {
  ASSERT_TRUE(fs::exists(kJob / "wide.cubin"));
  std::vector<Entry> out = frame_entries(link_job({"narrow.cubin", "wide.cubin"}, temp_output("b")),
                                         ".debug_frame");
  // narrow's two functions, then wide's without its mix<float>.
  ASSERT_EQ(out.size(), 10u);
  for (const Entry &e : out) {
    if (e.cie) {
      EXPECT_EQ(e.code_align, 4);
    }
  }
}
