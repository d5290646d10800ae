// sm_100+ capsule patching (docs/notes/semantics-findings.md §18) on corrupt
// capsules: texref_ptx's inputs, whose texture header indices dlink writes
// into the capsules, with the capsules' records damaged. The link must end in
// an nvlink-style fatal error without output, never read past a capsule.
#include "dlink/elf.h"
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
