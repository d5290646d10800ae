// sm_100+ capsule patching (docs/notes/semantics-findings.md §18) on corrupt
// capsules: texref_ptx's inputs, whose texture header indices dlink writes
// into the capsules, with the capsules' records damaged. The link must end in
// an nvlink-style fatal error without output, never read past a capsule.
#include "dlink/elf.h"
#include "mercury/capsule_patch.h"
#include "link_runner.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace dlink;

namespace {

const fs::path kJob = fs::path(DLINK_TESTDATA) / "golden" / "texref_ptx" / "sm_100";

// Links texref_ptx with unified.cubin's capsules passed through `damage`
// (called with each capsule's bytes, in place).
test::LinkRun link_with_damaged_capsules(const std::function<void(std::span<u8>)> &damage,
                                        bool &wrote_output) {
  fs::path dir = fs::temp_directory_path() / ("dlink_capsule_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const char *f : {"caller.cubin", "indep.cubin"})
    fs::copy_file(kJob / f, dir / f);
  std::vector<u8> bytes = test::read_bytes(kJob / "unified.cubin");
  ElfFile elf = read_elf(bytes);
  int damaged = 0;
  for (const ElfSection &s : elf.sections)
    if (s.type == SHT_CUDA_CAPMERC_TEXT) {
      damage(std::span<u8>(bytes.data() + s.offset, s.size));
      damaged++;
    }
  EXPECT_EQ(damaged, 3);
  {
    std::ofstream out(dir / "unified.cubin", std::ios::binary);
    out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  fs::path out = dir / "out.cubin";
  test::LinkRun r = test::run_link({"nvlink", "-arch=sm_100", (dir / "caller.cubin").string(),
                                    (dir / "unified.cubin").string(), (dir / "indep.cubin").string(),
                                    "-o", out.string()});
  wrote_output = fs::exists(out);
  fs::remove_all(dir);
  return r;
}

} // namespace

TEST(Capsule, UndamagedInputsLink) {
  ASSERT_TRUE(fs::exists(kJob / "unified.cubin"));
  bool wrote = false;
  test::LinkRun r = link_with_damaged_capsules([](std::span<u8>) {}, wrote);
  EXPECT_EQ(r.status, 0) << r.diagnostics;
  EXPECT_TRUE(wrote);
}

TEST(Capsule, RecordsRunningPastTheEndAreRefused) {
  // Every record claims 2 units (32 bytes): the last one runs past the end.
  bool wrote = true;
  test::LinkRun r = link_with_damaged_capsules(
      [](std::span<u8> c) {
        for (size_t i = 12 + 4; i < c.size(); i++)
          c[i] = 0x02;
      },
      wrote);
  EXPECT_EQ(r.status, 1) << r.diagnostics;
  EXPECT_FALSE(wrote);
  EXPECT_NE(r.diagnostics.find("nvlink fatal   : constant or header-index value in '"),
            std::string::npos)
      << r.diagnostics;
}

TEST(Capsule, ItemCountBeyondTheCapsuleIsRefused) {
  bool wrote = true;
  test::LinkRun r = link_with_damaged_capsules(
      [](std::span<u8> c) { write_le<u32>(c.data() + 8, 0xffffffffu); }, wrote);
  EXPECT_EQ(r.status, 1) << r.diagnostics;
  EXPECT_FALSE(wrote);
  EXPECT_NE(r.diagnostics.find("dlink cannot place it in this capsule-Mercury code"),
            std::string::npos)
      << r.diagnostics;
}

// Every sm_100+ capsule ptxas wrote for the golden cases parses into exactly
// its item count, ending at the capsule's end (or before a 2-byte token):
// the record-length rule of capsule_record_size, fences' and debug exits'
// 0x51/0xd1 tokens before records of either size included (cg_grid,
// cub_reduce and lineinfo_single's k_release have such tokens before 16- and
// 32-byte records).
TEST(Capsule, EveryGoldenInputCapsuleParses) {
  const fs::path golden = fs::path(DLINK_TESTDATA) / "golden";
  size_t capsules = 0, tokened = 0;
  for (const auto &entry : fs::recursive_directory_iterator(golden)) {
    const fs::path &p = entry.path();
    if (p.extension() != ".cubin" || p.filename() == "expected.cubin" ||
        p.parent_path().filename().string().rfind("sm_1", 0) != 0)
      continue;
    std::vector<u8> bytes = test::read_bytes(p);
    ElfFile elf = read_elf(bytes);
    for (const ElfSection &s : elf.sections) {
      if (s.type != SHT_CUDA_CAPMERC_TEXT)
        continue;
      std::vector<u8> c(bytes.begin() + long(s.offset), bytes.begin() + long(s.offset + s.size));
      std::vector<CapsuleItem> items;
      EXPECT_TRUE(parse_capsule(c, items)) << p << " " << s.name;
      capsules++;
      for (const CapsuleItem &it : items)
        if (it.size && (c[it.pos] == 0x51 || c[it.pos] == 0xd1) && it.size != 18)
          tokened++;
    }
  }
  EXPECT_GT(capsules, 5000u);
  EXPECT_GT(tokened, 0u); // a token before a 32-byte record was seen
}

TEST(Capsule, TokenWithoutRecordDoesNotParse) {
  // Header: section 0, 0, one item with bytes; then 0x51 0x02 followed by the
  // check token 0x50 | 9 << 7: no record after the first token.
  std::vector<u8> c = {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0x51, 0x02, 0xd0, 0x04};
  std::vector<CapsuleItem> items;
  EXPECT_FALSE(parse_capsule(c, items));
  EXPECT_EQ(capsule_record_size(c, 16), 0u);
}
