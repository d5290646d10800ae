// Weak functions whose copies call helpers or carry relocations
// (docs/notes/semantics-findings.md §15.6), linked in-process on the inputs
// of the golden cases weak_helper_dead, weak_helper_replaced, weak_mid_reloc,
// weak_mid_holder and weak_passed_over_reloc.
#include "dlink/elf.h"
#include "link_runner.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace dlink;

namespace {

using test::read_bytes;

const std::string kMix = "_Z3mixIfET_PKS0_i";
const std::string kSlowPath = "__cuda_sm20_sqrt_rn_f32_slowpath";

fs::path job(const std::string &c, const std::string &arch) {
  return fs::path(DLINK_TESTDATA) / "golden" / c / arch;
}

// Links the job's inputs (in `inputs` order) as nvlink would.
std::vector<u8> link_job(const fs::path &dir, const std::string &arch,
                         const std::vector<std::string> &inputs) {
  fs::path out = fs::temp_directory_path() /
                 ("dlink_weak_holder_" + std::to_string(::getpid()) + "_" + arch + ".cubin");
  std::vector<std::string> args{"nvlink", "-arch=" + arch};
  for (const std::string &in : inputs)
    args.push_back((dir / in).string());
  return test::link_output(args, out);
}

struct Linked {
  std::vector<u8> bytes;
  ElfFile elf;
  std::vector<ElfSymbol> symbols;
};

Linked link(const std::string &c, const std::string &arch, const std::vector<std::string> &inputs) {
  Linked l;
  l.bytes = link_job(job(c, arch), arch, inputs);
  l.elf = read_elf(l.bytes);
  l.symbols = read_symbols(l.elf, l.elf.sections.at(l.elf.find_section(".symtab").value()));
  return l;
}

int count_functions(const Linked &l, const std::string &name) {
  int n = 0;
  for (const ElfSymbol &s : l.symbols)
    if (s.type() == STT_FUNC && s.name == name)
      n++;
  return n;
}

// Callees of `caller` in the output .nv.callgraph (block 1), in order.
std::vector<u32> callees_of(const Linked &l, const std::string &caller) {
  std::vector<u32> out;
  auto idx = l.elf.find_section(".nv.callgraph");
  if (!idx)
    return out;
  const auto &d = l.elf.sections[*idx].data;
  int block = 0;
  for (size_t k = 0; k + 8 <= d.size(); k += 8) {
    u32 a = read_le<u32>(d.data() + k);
    i32 b = read_le<i32>(d.data() + k + 4);
    if (a == 0 && b < 0) {
      block = -b;
      continue;
    }
    if (block == 1 && a < l.symbols.size() && l.symbols[a].name == caller)
      out.push_back(static_cast<u32>(b));
  }
  return out;
}

// Relocations of `section` against symbols named `name`.
int relocs_against(const Linked &l, const std::string &section, const std::string &name) {
  auto idx = l.elf.find_section(section);
  if (!idx)
    return 0;
  int n = 0;
  for (const ElfReloc &r : read_relocs(l.elf.sections[*idx]))
    if (r.sym < l.symbols.size() && l.symbols[r.sym].name == name)
      n++;
  return n;
}

bool shstrtab_has(const Linked &l, const std::string &name) {
  const auto &d = l.elf.sections.at(l.elf.shstrndx).data;
  std::string all(d.begin(), d.end());
  return all.find(std::string(1, '\0') + name + std::string(1, '\0')) != std::string::npos;
}

} // namespace

// The later copy loses: it adds no call edge, so its local helper is dead.
TEST(WeakHolder, LosingLaterCopyAddsNoCallEdge) {
  for (const char *arch : {"sm_75", "sm_90", "sm_100"}) {
    ASSERT_TRUE(fs::exists(job("weak_helper_dead", arch) / "wide.cubin")) << arch;
    Linked l = link("weak_helper_dead", arch, {"narrow.cubin", "wide.cubin"});
    EXPECT_EQ(count_functions(l, kSlowPath), 1) << arch;
    EXPECT_EQ(callees_of(l, kMix).size(), 1u) << arch;
    EXPECT_EQ(l.bytes, read_bytes(job("weak_helper_dead", arch) / "expected.cubin")) << arch;
  }
}

// The first copy is replaced: its call edge (and so its helper) stays, the
// newest edge first.
TEST(WeakHolder, ReplacedCopyKeepsItsCallEdge) {
  Linked l = link("weak_helper_replaced", "sm_75", {"wide.cubin", "narrow.cubin"});
  EXPECT_EQ(count_functions(l, kSlowPath), 2);
  std::vector<u32> callees = callees_of(l, kMix);
  ASSERT_EQ(callees.size(), 2u);
  EXPECT_GT(callees[0], callees[1]); // narrow's helper (created later) first
  // The replaced copy's code relocations leave their section names.
  EXPECT_TRUE(shstrtab_has(l, ".rela.text." + kMix));
  EXPECT_TRUE(shstrtab_has(l, ".rel.text." + kMix));
}

// sm_90+: a replaced copy with code relocations leaves the frame entries
// alone; only the kept copy's FDE relocation remains. sm_75-89 keep both.
TEST(WeakHolder, ReplacedCopyWithRelocationsKeepsFramesOnSm90) {
  Linked old = link("weak_helper_replaced", "sm_80", {"wide.cubin", "narrow.cubin"});
  EXPECT_EQ(relocs_against(old, ".rel.debug_frame", kMix), 2);
  Linked l = link("weak_helper_replaced", "sm_90", {"wide.cubin", "narrow.cubin"});
  EXPECT_EQ(relocs_against(l, ".rela.debug_frame", kMix), 1);
  // A replaced holder in the middle counts too (wide:mid:narrow, mid calls).
  Linked mid = link("weak_mid_reloc", "sm_90", {"wide.cubin", "mid.cubin", "narrow.cubin"});
  EXPECT_EQ(relocs_against(mid, ".rela.debug_frame", kMix), 1);
  EXPECT_EQ(mid.bytes, read_bytes(job("weak_mid_reloc", "sm_90") / "expected.cubin"));
}

// sm_100+: a replaced holder in the middle keeps its Mercury frame
// relocation, as it keeps its SASS one.
TEST(WeakHolder, MiddleHolderKeepsMercuryFrameRelocation) {
  Linked l = link("weak_mid_holder", "sm_100", {"wide.cubin", "mid.cubin", "narrow.cubin"});
  EXPECT_EQ(relocs_against(l, ".rela.debug_frame", kMix), 3);
  EXPECT_EQ(relocs_against(l, ".nv.merc.rela.debug_frame", kMix), 3);
}

// A copy that never held the function (more registers than the one held)
// leaves no relocation section name behind.
TEST(WeakHolder, PassedOverCopyLeavesNoRelocationNames) {
  Linked l = link("weak_passed_over_reloc", "sm_90", {"mid.cubin", "wide.cubin", "narrow.cubin"});
  EXPECT_FALSE(shstrtab_has(l, ".rela.text." + kMix));
  EXPECT_EQ(l.bytes, read_bytes(job("weak_passed_over_reloc", "sm_90") / "expected.cubin"));
}

// A replaced weak kernel (template tk<float>): its sections keep the first
// copy's place, so the kept copy's .nv.info.<k> comes right after
// .text.<k>, and (sm_75-90) its parameter bank right after k_wide's.
TEST(WeakHolder, ReplacedWeakKernelKeepsFirstCopysPlaces) {
  const std::string tk = "_Z2tkIfEvPKT_PS0_i";
  for (const char *arch : {"sm_75", "sm_90", "sm_100"}) {
    Linked l = link("weak_kernel_replaced", arch, {"wide.cubin", "narrow.cubin"});
    const auto &d = l.elf.sections.at(l.elf.shstrndx).data;
    std::string names(d.begin(), d.end());
    size_t text = names.find(".text." + tk);
    size_t info = names.find(".nv.info." + tk);
    ASSERT_NE(text, std::string::npos) << arch;
    ASSERT_NE(info, std::string::npos) << arch;
    EXPECT_EQ(info, text + (".text." + tk).size() + 1) << arch;
    if (std::string(arch) != "sm_100") {
      size_t bank_a = names.find(".nv.constant0._Z6k_widePf");
      size_t bank_tk = names.find(".nv.constant0." + tk);
      size_t bank_b = names.find(".nv.constant0._Z8k_narrowPf");
      EXPECT_LT(bank_tk, bank_b) << arch;
      EXPECT_NE(bank_a, std::string::npos) << arch;
    }
    EXPECT_EQ(l.bytes, read_bytes(job("weak_kernel_replaced", arch) / "expected.cubin")) << arch;
  }
}
