// A relocation the link keeps must name an output symbol: nvlink never
// leaves one against symbol 0, whose S = 0 the driver would patch into the
// code. ptxas's `.nv.ptx.const0.size` (device-side __isGlobal; a LOCAL
// OBJECT, STV_INTERNAL, undefined symbol) is resolved to all ones as nvlink
// does, whatever its name; undefined locals of other kinds, which nvlink
// treats differently (a symbol kept with value -1, or S = 0), are refused
// with an internal error instead of being kept against symbol 0 (golden
// reloc_ptx_const0_size).
#include "link_runner.h"

#include "dlink/elf.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string_view>

namespace fs = std::filesystem;
using namespace dlink;

namespace {

const fs::path kJob = fs::path(DLINK_TESTDATA) / "golden" / "reloc_ptx_const0_size" / "sm_90";

class RelocSymbol : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(kJob / "cmd")) << "golden job missing: " << kJob;
    dir_ = fs::temp_directory_path() / ("dlink_reloc_symbol_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Links isglobal.cubin (its bytes given) with the stored kernels.cubin.
  test::LinkRun link(const std::vector<u8> &isglobal) {
    std::ofstream(dir_ / "isglobal.cubin", std::ios::binary)
        .write(reinterpret_cast<const char *>(isglobal.data()),
               static_cast<std::streamsize>(isglobal.size()));
    fs::copy_file(kJob / "kernels.cubin", dir_ / "kernels.cubin", fs::copy_options::overwrite_existing);
    return test::run_link({"nvlink", "-arch=sm_90", (dir_ / "isglobal.cubin").string(),
                           (dir_ / "kernels.cubin").string(), "-o", (dir_ / "out.cubin").string()});
  }

  fs::path dir_;
};

TEST_F(RelocSymbol, PtxConst0SizeIsResolvedAsNvlinkDoes) {
  test::LinkRun r = link(test::read_bytes(kJob / "isglobal.cubin"));
  ASSERT_EQ(r.status, 0) << r.diagnostics;
  EXPECT_EQ(test::read_bytes(dir_ / "out.cubin"), test::read_bytes(kJob / "expected.cubin"));
}

// nvlink's output for the renamed symbol is byte-identical to the original's.
TEST_F(RelocSymbol, AnyInternalUndefinedObjectResolvesToAllOnes) {
  std::vector<u8> bytes = test::read_bytes(kJob / "isglobal.cubin");
  constexpr std::string_view from = ".nv.ptx.const0.size";
  constexpr std::string_view to = ".nv.ptx.const0.sizf"; // same length: only the name changes
  auto it = std::search(bytes.begin(), bytes.end(), from.begin(), from.end());
  ASSERT_NE(it, bytes.end());
  std::copy(to.begin(), to.end(), it);
  test::LinkRun r = link(bytes);
  ASSERT_EQ(r.status, 0) << r.diagnostics;
  EXPECT_EQ(test::read_bytes(dir_ / "out.cubin"), test::read_bytes(kJob / "expected.cubin"));
}

// Rewrites st_info/st_other of the input's `.nv.ptx.const0.size`.
std::vector<u8> with_symbol_attributes(u8 info, u8 other) {
  std::vector<u8> bytes = test::read_bytes(kJob / "isglobal.cubin");
  ElfFile elf = read_elf(bytes);
  const ElfSection *symtab = elf.section_named(".symtab");
  EXPECT_NE(symtab, nullptr);
  std::vector<ElfSymbol> syms = read_symbols(elf, *symtab);
  for (size_t i = 0; i < syms.size(); i++)
    if (syms[i].name == ".nv.ptx.const0.size") {
      bytes[symtab->offset + 24 * i + 4] = info;
      bytes[symtab->offset + 24 * i + 5] = other;
      return bytes;
    }
  ADD_FAILURE() << "no .nv.ptx.const0.size";
  return bytes;
}

// nvlink keeps a default-visibility LOCAL OBJECT as a symbol of value -1 and
// writes S = 0 for a LOCAL NOTYPE: dlink refuses both rather than keep a
// relocation against symbol 0.
TEST_F(RelocSymbol, OtherUndefinedLocalsAreRefused) {
  for (auto [info, other] : {std::pair<u8, u8>{0x01, 0x00}, std::pair<u8, u8>{0x00, 0x01}}) {
    test::LinkRun r = link(with_symbol_attributes(info, other));
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.diagnostics.find("internal error: relocation of type 0x37 at 0x20 in "
                                 "'.rela.text._Z6eitherPKvS0_' against '.nv.ptx.const0.size' "
                                 "would name no symbol"),
              std::string::npos)
        << r.diagnostics;
    EXPECT_FALSE(fs::exists(dir_ / "out.cubin"));
  }
}

} // namespace
