// sm_100 code linked for sm_103: nvlink re-encodes double-precision
// arithmetic there (docs/notes/mixed-arch.md), so dlink refuses such links
// with a fatal error and no output, and links code without it as a relabel.
#include "link_runner.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace dlink;

namespace {

const fs::path kGolden = fs::path(DLINK_TESTDATA) / "golden";

struct Result {
  int status;
  std::string diagnostics;
  bool wrote_output;
};

Result link_for(const std::string &arch, const std::vector<fs::path> &inputs) {
  fs::path out = fs::temp_directory_path() / ("dlink_off_target_" + std::to_string(::getpid()));
  fs::remove(out);
  std::vector<std::string> args{"nvlink", "-arch=" + arch};
  for (const fs::path &in : inputs)
    args.push_back(in.string());
  args.push_back("-o");
  args.push_back(out.string());
  test::LinkRun run = test::run_link(args);
  Result r{run.status, run.diagnostics, fs::exists(out)};
  fs::remove(out);
  return r;
}

} // namespace

TEST(OffTarget, DoublePrecisionSm100CodeForSm103IsRefused) {
  fs::path dir = kGolden / "math_2tu" / "sm_100";
  ASSERT_TRUE(fs::exists(dir / "a.cubin"));
  for (const char *arch : {"sm_103", "sm_103a", "sm_103f"}) {
    Result r = link_for(arch, {dir / "a.cubin", dir / "b.cubin"});
    EXPECT_EQ(r.status, 1) << arch << ": " << r.diagnostics;
    EXPECT_FALSE(r.wrote_output) << arch;
    EXPECT_NE(r.diagnostics.find("nvlink fatal   : Input file '"), std::string::npos)
        << r.diagnostics;
    EXPECT_NE(r.diagnostics.find("has double-precision code built for sm_100, which nvlink "
                                 "re-encodes for '" +
                                 std::string(arch) + "'"),
              std::string::npos)
        << r.diagnostics;
  }
}

TEST(OffTarget, SameCodeLinksForItsOwnSm) {
  fs::path dir = kGolden / "math_2tu" / "sm_100";
  Result r = link_for("sm_100", {dir / "a.cubin", dir / "b.cubin"});
  EXPECT_EQ(r.status, 0) << r.diagnostics;
  EXPECT_TRUE(r.wrote_output);
}

TEST(OffTarget, Sm100CodeWithoutDoublePrecisionLinksForSm103) {
  fs::path dir = kGolden / "single_tu" / "sm_100";
  ASSERT_TRUE(fs::exists(dir / "kernel.cubin"));
  Result r = link_for("sm_103", {dir / "kernel.cubin"});
  EXPECT_EQ(r.status, 0) << r.diagnostics;
  EXPECT_TRUE(r.wrote_output);
}
