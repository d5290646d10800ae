// In-process tests of the whole link pipeline (driver.h): a golden link job
// reproduces nvlink's bytes when run through link() directly, several links in
// one process do not interfere (no global state), and corrupted inputs end in
// an nvlink-style fatal error or a normal result -- never a crash, an escaped
// exception or a partial output file.
#include "link_runner.h"

#include "dlink/elf.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <random>
#include <sstream>

namespace fs = std::filesystem;
using namespace dlink;

namespace {

const fs::path kJob = fs::path(DLINK_TESTDATA) / "golden" / "mixed" / "sm_90";

using test::read_bytes;

void write_bytes(const fs::path &p, const std::vector<u8> &b) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char *>(b.data()), static_cast<std::streamsize>(b.size()));
}

std::vector<std::string> stored_args() {
  std::ifstream in(kJob / "cmd");
  std::vector<std::string> args;
  for (std::string line; std::getline(in, line);)
    if (!line.empty())
      args.push_back(line);
  return args;
}

class LinkPipeline : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(kJob / "cmd")) << "golden job missing: " << kJob;
    dir_ = fs::temp_directory_path() / ("dlink_pipeline_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    for (const auto &e : fs::directory_iterator(kJob))
      if (e.path().extension() == ".cubin" && e.path().filename() != "expected.cubin")
        fs::copy_file(e.path(), dir_ / e.path().filename());
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs link() as `nvlink <stored args>` with inputs and output in dir_.
  int run(std::string &err, const std::string &output = "out.cubin",
          const std::vector<std::string> &extra = {}) {
    std::vector<std::string> args{"nvlink"};
    for (std::string a : stored_args()) {
      if (a == "expected.cubin")
        a = (dir_ / output).string();
      else if (a.ends_with(".cubin"))
        a = (dir_ / a).string();
      args.push_back(a);
    }
    args.insert(args.end(), extra.begin(), extra.end());
    test::LinkRun r = test::run_link(args);
    err = r.diagnostics;
    return r.status;
  }

  fs::path dir_;
};

} // namespace

TEST_F(LinkPipeline, ReproducesNvlinkInProcess) {
  std::string err;
  ASSERT_EQ(run(err), 0) << err;
  EXPECT_EQ(read_bytes(dir_ / "out.cubin"), read_bytes(kJob / "expected.cubin"));
}

// --dlink-time-passes: one stderr line per stage and the total, nothing on
// the diagnostic stream, the same output bytes; without it, nothing.
TEST_F(LinkPipeline, TimePassesPrintsOneLinePerStage) {
  std::string err;
  testing::internal::CaptureStderr();
  ASSERT_EQ(run(err, "out.cubin", {"--dlink-time-passes"}), 0) << err;
  std::string timings = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err, "");
  EXPECT_EQ(read_bytes(dir_ / "out.cubin"), read_bytes(kJob / "expected.cubin"));
  for (const char *stage : {"read_inputs", "validate_inputs", "choose_weak_definitions", "find_live_functions",
                            "collect_prototype_strings", "merge_inputs", "layout_memory", "apply_relocations",
                            "build_nv_info", "write_output", "commit_output", "total"})
    EXPECT_NE(timings.find(std::string("dlink: pass ") + stage + " "), std::string::npos) << timings;
  // The steps of the longest stages, each timed from the end of the step
  // before.
  for (const char *step : {"merge_inputs.prepare", "merge_inputs.inputs", "merge_inputs.conversions",
                           "merge_inputs.release", "merge_inputs.order", "build_nv_info.call_graph",
                           "build_nv_info.module", "build_nv_info.facts", "build_nv_info.functions",
                           "write_output.order", "write_output.strings", "write_output.prepare_tables",
                           "write_output.tables", "write_output.headers"})
    EXPECT_NE(timings.find(std::string("dlink: pass ") + step + " "), std::string::npos) << timings;
  EXPECT_EQ(std::count(timings.begin(), timings.end(), '\n'), 18 + 14) << timings;
  testing::internal::CaptureStderr();
  ASSERT_EQ(run(err, "plain.cubin"), 0) << err;
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

// The synthetic sections' bytes are written in parallel (src/output/
// synthetic.h): the output must not depend on the thread count.
TEST_F(LinkPipeline, OutputIsTheSameWithAnyThreadCount) {
  std::string err;
  for (const char *threads : {"1", "2", "8"}) {
    std::string out = std::string("threads") + threads + ".cubin";
    ASSERT_EQ(run(err, out, {"--threads", threads}), 0) << err;
    EXPECT_EQ(read_bytes(dir_ / out), read_bytes(kJob / "expected.cubin")) << "--threads " << threads;
  }
}

TEST_F(LinkPipeline, RepeatedLinksInOneProcessAreIdentical) {
  std::string err;
  ASSERT_EQ(run(err, "a.cubin"), 0) << err;
  ASSERT_EQ(run(err, "b.cubin"), 0) << err;
  EXPECT_EQ(read_bytes(dir_ / "a.cubin"), read_bytes(dir_ / "b.cubin"));
}

TEST_F(LinkPipeline, CorruptedInputsNeverCrashOrLeaveOutput) {
  std::vector<std::string> inputs;
  for (const auto &a : stored_args())
    if (a.ends_with(".cubin") && a != "expected.cubin")
      inputs.push_back(a);
  ASSERT_FALSE(inputs.empty());
  std::mt19937 rng(1234);
  int failures = 0;
  for (int round = 0; round < 150; round++) {
    const std::string victim = inputs[rng() % inputs.size()];
    std::vector<u8> original = read_bytes(kJob / victim);
    std::vector<u8> bytes = original;
    for (int k = 1 + rng() % 8; k > 0; k--)
      bytes[rng() % bytes.size()] = static_cast<u8>(rng());
    if (rng() % 5 == 0)
      bytes.resize(64 + rng() % (bytes.size() - 64));
    write_bytes(dir_ / victim, bytes);
    fs::remove(dir_ / "out.cubin");

    std::string err;
    int status = -1;
    EXPECT_NO_THROW(status = run(err)) << "round " << round;
    EXPECT_TRUE(status == 0 || status == 1 || status == 255) << "round " << round;
    if (status != 0) {
      failures++;
      EXPECT_FALSE(fs::exists(dir_ / "out.cubin")) << "partial output after failure, round " << round;
      EXPECT_NE(err.find("nvlink "), std::string::npos) << "no diagnostic, round " << round;
    }
    write_bytes(dir_ / victim, original);
  }
  // The corruption must actually exercise the error paths.
  EXPECT_GT(failures, 20);
}

TEST_F(LinkPipeline, UnopenableSideFilesAreFatalAndLeaveNoOutput) {
  const std::string missing = (dir_ / "no" / "such" / "file").string();
  fs::create_directories(dir_ / "a_directory");
  std::ofstream(dir_ / "empty.uidx").close();
  std::ofstream(dir_ / "text.uidx") << "not an index\n";
  struct Case {
    std::vector<std::string> extra;
    std::string message;
  } cases[] = {
      {{"-time", missing}, "nvlink fatal   : Cannot open file '" + missing + "'\n"},
      {{"-time", (dir_ / "a_directory").string()},
       "nvlink fatal   : Cannot open file '" + (dir_ / "a_directory").string() + "'\n"},
      {{"-uidx", missing}, "nvlink fatal   : Could not open input file '" + missing + "'\n"},
      {{"-uidx", (dir_ / "empty.uidx").string()},
       "nvlink fatal   : Could not read file '" + (dir_ / "empty.uidx").string() + "'\n"},
      {{"-uidx", "/dev/zero"}, "nvlink fatal   : Could not read file '/dev/zero'\n"},
      {{"-uidx", (dir_ / "a_directory").string()}, "nvlink fatal   : Memory allocation failure\n"},
      {{"-uidx", (dir_ / "text.uidx").string()}, "nvlink fatal   : Internal error: not uidx input\n"},
  };
  for (const Case &c : cases) {
    std::string err;
    EXPECT_EQ(run(err, "out.cubin", c.extra), 1) << c.extra[0];
    EXPECT_EQ(err, c.message);
    EXPECT_FALSE(fs::exists(dir_ / "out.cubin")) << c.extra[0];
  }
}

// Field-level corruptions found by mutation (tools/mutate-cubins), each one
// crashed the merge or the writer before the input validation covered it.
// They end in "Corrupt input file" and leave no output.
namespace {

struct SymbolField {
  size_t offset = 0; // file offset of the symbol-table entry
  ElfSymbol sym;
};

// The first symbol of `victim` accepted by `pick`, with its entry's offset.
SymbolField find_symbol(const std::vector<u8> &bytes,
                        const std::function<bool(const ElfFile &, const ElfSymbol &)> &pick) {
  ElfFile elf = read_elf(bytes);
  for (const ElfSection &sec : elf.sections) {
    if (sec.type != SHT_SYMTAB)
      continue;
    std::vector<ElfSymbol> syms = read_symbols(elf, sec);
    for (size_t k = 1; k < syms.size(); k++)
      if (pick(elf, syms[k]))
        return {static_cast<size_t>(sec.offset + 24 * k), syms[k]};
  }
  ADD_FAILURE() << "no such symbol";
  return {};
}

} // namespace

class CorruptSymbol : public LinkPipeline {
protected:
  // Applies `edit` to `victim`, links, and expects a corrupt-input fatal
  // naming `what`, and no output file.
  void expect_corrupt(const std::function<void(std::vector<u8> &)> &edit, const std::string &what,
                      const std::string &victim = "util.cubin") {
    std::vector<u8> bytes = read_bytes(kJob / victim);
    edit(bytes);
    write_bytes(dir_ / victim, bytes);
    std::string err;
    EXPECT_EQ(run(err), 1) << err;
    EXPECT_NE(err.find("Corrupt input file '"), std::string::npos) << err;
    EXPECT_NE(err.find(victim + "'"), std::string::npos) << err;
    EXPECT_NE(err.find(what), std::string::npos) << err;
    EXPECT_FALSE(fs::exists(dir_ / "out.cubin"));
  }

  static bool defined_function(const ElfFile &, const ElfSymbol &s) {
    return s.type() == STT_FUNC && s.shndx != SHN_UNDEF;
  }
  static bool defined_variable(const ElfFile &elf, const ElfSymbol &s) {
    return (s.type() == STT_OBJECT || s.type() == STT_CUDA_VARIABLE) && s.shndx != SHN_UNDEF &&
           s.shndx < elf.sections.size() && !s.is_shared_variable();
  }
};

TEST_F(CorruptSymbol, ReservedSectionIndexOfAFunction) {
  expect_corrupt(
      [](std::vector<u8> &b) {
        SymbolField f = find_symbol(b, defined_function);
        write_le<u16>(b.data() + f.offset + 6, 0xfffe);
      },
      "reserved section index 0xfffe");
}

TEST_F(CorruptSymbol, ReservedSectionIndexOfAVariable) {
  expect_corrupt(
      [](std::vector<u8> &b) {
        SymbolField f = find_symbol(b, defined_variable);
        write_le<u16>(b.data() + f.offset + 6, SHN_ABS);
      },
      "reserved section index 0xfff1", "data.cubin");
}

TEST_F(CorruptSymbol, FunctionOutsideCode) {
  expect_corrupt(
      [](std::vector<u8> &b) {
        ElfFile elf = read_elf(b);
        SymbolField fn = find_symbol(b, defined_function);
        u16 data_section = 0;
        for (u16 k = 1; k < elf.sections.size() && !data_section; k++)
          if (elf.sections[k].type == SHT_PROGBITS && !(elf.sections[k].flags & SHF_EXECINSTR))
            data_section = k;
        write_le<u16>(b.data() + fn.offset + 6, data_section);
      },
      "is not in a code section");
}

TEST_F(CorruptSymbol, HugeValueOfAVariable) {
  expect_corrupt(
      [](std::vector<u8> &b) {
        SymbolField f = find_symbol(b, defined_variable);
        write_le<u64>(b.data() + f.offset + 8, 0x7fffffffffffffffull);
      },
      "lies outside section", "data.cubin");
}

TEST_F(CorruptSymbol, HugeSizeOfAFunction) {
  expect_corrupt(
      [](std::vector<u8> &b) {
        SymbolField f = find_symbol(b, defined_function);
        write_le<u64>(b.data() + f.offset + 16, ~0ull);
      },
      "lies outside section");
}

// A call-graph block marker of INT_MIN (`block = -b` overflowed; the UBSan
// build, -DDLINK_SANITIZE=ON, reports it).
TEST_F(CorruptSymbol, CallgraphBlockMarkerIntMin) {
  std::vector<u8> bytes = read_bytes(kJob / "util.cubin");
  ElfFile elf = read_elf(bytes);
  bool patched = false;
  for (const ElfSection &sec : elf.sections)
    if (sec.type == SHT_CUDA_CALLGRAPH && sec.size >= 8) {
      write_le<u32>(bytes.data() + sec.offset, 0);
      write_le<u32>(bytes.data() + sec.offset + 4, 0x80000000u);
      patched = true;
    }
  ASSERT_TRUE(patched);
  write_bytes(dir_ / "util.cubin", bytes);
  std::string err;
  int status = run(err);
  EXPECT_TRUE(status == 0 || status == 1) << err;
  if (status != 0) {
    EXPECT_FALSE(fs::exists(dir_ / "out.cubin"));
  }
}

// A section a later stage reads by name whatever its type (`.nv.info`, typed
// PROGBITS here, so the validation does not parse it) with a malformed record:
// found by fuzz_link as an uncaught InputError (std::terminate). It ends in a
// corrupt-input fatal and no output.
TEST_F(CorruptSymbol, MistypedInfoSectionWithBadRecord) {
  std::vector<u8> bytes = read_bytes(kJob / "util.cubin");
  ElfFile elf = read_elf(bytes);
  bool patched = false;
  for (size_t k = 1; k < elf.sections.size(); k++) {
    const ElfSection &sec = elf.sections[k];
    if (sec.name != ".nv.info" || sec.size < 4)
      continue;
    const size_t header = elf.shoff + k * 64;
    write_le<u32>(bytes.data() + header + 4, SHT_PROGBITS);
    bytes[sec.offset] = 0x44; // no such EIATTR format
    patched = true;
  }
  ASSERT_TRUE(patched);
  write_bytes(dir_ / "util.cubin", bytes);
  std::string err;
  EXPECT_EQ(run(err), 1) << err;
  EXPECT_NE(err.find("Corrupt input file"), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(dir_ / "out.cubin"));
}

// nvlink compares the sizes of every object symbol across inputs, not only of
// CUDA variables: an undefined weak __UDT_OFFSET (STT_OBJECT, 8 bytes) given
// another size in one input is "Size doesn't match" (measured with nvlink on
// the corrupted job).
TEST(CorruptSizes, ObjectSymbolSizeMismatch) {
  const fs::path job = fs::path(DLINK_TESTDATA) / "golden" / "device_vars" / "sm_90";
  const fs::path dir = fs::temp_directory_path() / ("dlink_sizes_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(job / "vars.cubin", dir / "vars.cubin");
  std::vector<u8> bytes = read_bytes(job / "kernel.cubin");
  SymbolField f = find_symbol(bytes, [](const ElfFile &, const ElfSymbol &s) {
    return s.name == "__UDT_OFFSET";
  });
  ASSERT_EQ(f.sym.type(), STT_OBJECT);
  write_le<u64>(bytes.data() + f.offset + 16, 16);
  write_bytes(dir / "kernel.cubin", bytes);
  test::LinkRun r = test::run_link({"nvlink", "-arch=sm_90", (dir / "vars.cubin").string(),
                                    (dir / "kernel.cubin").string(), "-o",
                                    (dir / "out.cubin").string()});
  EXPECT_EQ(r.status, 1) << r.diagnostics;
  EXPECT_NE(r.diagnostics.find("Size doesn't match for '__UDT_OFFSET'"), std::string::npos)
      << r.diagnostics;
  EXPECT_FALSE(fs::exists(dir / "out.cubin"));
  fs::remove_all(dir);
}

// -r of unified functions and variables (relocatable_unified): an entry table
// of .nv.uft.entry whose first entry names a missing symbol, or whose size
// ends inside an entry, is corrupt input, with no output.
TEST(CorruptUnifiedEntries, MissingSymbolAndPartialEntry) {
  const fs::path job = fs::path(DLINK_TESTDATA) / "golden" / "relocatable_unified" / "sm_90";
  const fs::path dir = fs::temp_directory_path() / ("dlink_unified_" + std::to_string(::getpid()));
  struct Case {
    std::function<void(std::vector<u8> &, const ElfFile &, size_t)> edit;
    std::string what;
  } cases[] = {
      {[](std::vector<u8> &b, const ElfFile &elf, size_t i) {
         write_le<u32>(b.data() + elf.sections[i].offset, 0xffff);
       },
       "names a missing symbol"},
      {[](std::vector<u8> &b, const ElfFile &elf, size_t i) {
         write_le<u64>(b.data() + elf.shoff + 64 * i + 32, elf.sections[i].size - 1); // sh_size
       },
       "ends inside an entry"},
  };
  for (const Case &c : cases) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy_file(job / "c.cubin", dir / "c.cubin");
    std::vector<u8> bytes = read_bytes(job / "b.cubin");
    std::optional<size_t> table;
    {
      ElfFile elf = read_elf(bytes);
      for (size_t i = 0; i < elf.sections.size() && !table; i++)
        if (elf.sections[i].type == SHT_CUDA_UFT_ENTRY)
          table = i;
      ASSERT_TRUE(table);
      c.edit(bytes, elf, *table);
    }
    write_bytes(dir / "b.cubin", bytes);
    test::LinkRun r = test::run_link({"nvlink", "-arch=sm_90", "-r", (dir / "b.cubin").string(),
                                      (dir / "c.cubin").string(), "-o", (dir / "out.cubin").string()});
    EXPECT_EQ(r.status, 1) << r.diagnostics;
    EXPECT_NE(r.diagnostics.find("Corrupt input file '"), std::string::npos) << r.diagnostics;
    EXPECT_NE(r.diagnostics.find(c.what), std::string::npos) << r.diagnostics;
    EXPECT_FALSE(fs::exists(dir / "out.cubin"));
  }
  fs::remove_all(dir);
}
