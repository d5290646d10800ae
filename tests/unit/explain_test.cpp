// The explanation options (--map, --why-extract, --trace-symbol / -y,
// --resource-report; src/explain): they never change the image (byte for
// byte the golden nvlink output, with and without them), their reports on a
// few golden links are stored under testdata/explain/ (DLINK_UPDATE_EXPLAIN=1
// rewrites them), and bad use gets clear messages.
#include "link_runner.h"

#include "dlink/elf.h"
#include "explain/cubin_resources.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace dlink;

namespace {

const fs::path kGolden = fs::path(DLINK_TESTDATA) / "golden";
const fs::path kExpected = fs::path(DLINK_TESTDATA) / "explain";

std::string read_text(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_text(const fs::path &p, const std::string &s) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << s;
}

// A golden job run in a scratch copy of its directory (the current
// directory while the test runs, as the golden harness does).
class GoldenJob {
public:
  GoldenJob(const std::string &name, const std::string &arch) : job_(kGolden / name / arch) {
    dir_ = fs::temp_directory_path() /
           ("dlink_explain_" + std::to_string(::getpid()) + "_" + name + "_" + arch);
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    for (const auto &e : fs::directory_iterator(job_))
      if (!e.path().filename().string().starts_with("expected."))
        fs::copy_file(e.path(), dir_ / e.path().filename());
    old_cwd_ = fs::current_path();
    fs::current_path(dir_);
  }
  ~GoldenJob() {
    fs::current_path(old_cwd_);
    fs::remove_all(dir_);
  }
  bool usable() const { return fs::exists(job_ / "cmd") && !fs::exists(job_ / "requires"); }

  // Runs the stored command line (as `nvlink`) plus `extra`, the output
  // going to `output`.
  test::LinkRun run(const std::string &output, const std::vector<std::string> &extra = {}) {
    std::vector<std::string> args{"nvlink"};
    std::ifstream in(job_ / "cmd");
    for (std::string line; std::getline(in, line);)
      if (!line.empty())
        args.push_back(line == "expected.cubin" ? output : line);
    args.insert(args.end(), extra.begin(), extra.end());
    return test::run_link(args);
  }
  std::vector<u8> golden_image() const { return test::read_bytes(job_ / "expected.cubin"); }
  std::string golden_stderr() const { return read_text(job_ / "expected.stderr"); }
  int golden_status() const { return std::stoi(read_text(job_ / "expected.status")); }

private:
  fs::path job_, dir_, old_cwd_;
};

const std::vector<std::string> kAllReports = {"--map=out.map", "--why-extract=out.tsv",
                                              "--resource-report=out.json", "-y", "vprintf"};

} // namespace

// With every explanation option the image is nvlink's, byte for byte, on
// links of several kinds and arches: CUB and Thrust code, an archive, weak
// functions, recursion, sm_80, sm_90 and capsule Mercury (sm_100, sm_120).
TEST(Explain, ImageIsByteIdenticalWithAndWithoutTheOptions) {
  const std::pair<const char *, const char *> jobs[] = {
      {"cub_reduce", "sm_90"},   {"thrust_device", "sm_90"}, {"dlink_devlib", "sm_90"},
      {"weak_regs", "sm_80"},    {"recursion", "sm_90"},     {"thrust_device", "sm_100"},
      {"dlink_devlib", "sm_120"}, {"kernels_used", "sm_86"},  {"dead_code", "sm_75"}};
  for (auto [name, arch] : jobs) {
    SCOPED_TRACE(std::string(name) + "/" + arch);
    GoldenJob job(name, arch);
    ASSERT_TRUE(job.usable());
    test::LinkRun plain = job.run("plain.cubin");
    testing::internal::CaptureStdout();
    test::LinkRun explained = job.run("explained.cubin", kAllReports);
    testing::internal::GetCapturedStdout();
    ASSERT_EQ(plain.status, job.golden_status());
    EXPECT_EQ(explained.status, plain.status);
    EXPECT_EQ(plain.diagnostics, job.golden_stderr());
    // (vprintf is mentioned by no input of some links: one note more.)
    std::string expl = explained.diagnostics;
    std::string note = "nvlink info    : --trace-symbol: no input defines or references 'vprintf'\n";
    if (expl.ends_with(note))
      expl.resize(expl.size() - note.size());
    EXPECT_EQ(expl, plain.diagnostics);
    std::vector<u8> a = test::read_bytes("plain.cubin"), b = test::read_bytes("explained.cubin");
    ASSERT_FALSE(a.empty());
    EXPECT_TRUE(a == b) << "the image changed";
    EXPECT_TRUE(a == job.golden_image()) << "not nvlink's image";
    for (const char *f : {"out.map", "out.tsv", "out.json"})
      EXPECT_GT(fs::file_size(f), 0u) << f;
  }
}

// Stored reports: an archive link (libdev.a: one member used, two not) and
// a CUB link, and a recursion link's resource report.
TEST(Explain, ReportsMatchTheStoredOnes) {
  const bool update = std::getenv("DLINK_UPDATE_EXPLAIN") != nullptr;
  struct Case {
    const char *job, *arch;
    std::vector<std::string> files; // extensions written: map, tsv, json
    std::vector<std::string> traces;
  };
  const Case cases[] = {
      {"dlink_devlib", "sm_90", {"map", "tsv", "json"}, {"_Z5norm2PKf", "stats_scale", "unused_table"}},
      {"cub_reduce", "sm_90", {"map", "json"}, {"_ZN3cub17CUB_300001_SM_9006detail11EmptyKernelIvEEvv"}},
      {"recursion", "sm_90", {"json"}, {}},
      {"weak_regs", "sm_80", {"map"}, {}},
      {"thrust_device", "sm_90", {"json"}, {}},
      {"virtual_funcs", "sm_90", {"json"}, {}},
      {"indirect_ptx_9", "sm_90", {"json"}, {}},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(std::string(c.job) + "/" + c.arch);
    GoldenJob job(c.job, c.arch);
    std::vector<std::string> extra;
    for (const std::string &ext : c.files)
      extra.push_back((ext == "map" ? "--map=out." : ext == "tsv" ? "--why-extract=out." : "--resource-report=out.") + ext);
    for (const std::string &t : c.traces) {
      extra.push_back("--trace-symbol");
      extra.push_back(t);
    }
    testing::internal::CaptureStdout();
    test::LinkRun r = job.run("expected.cubin", extra);
    std::string trace = testing::internal::GetCapturedStdout();
    ASSERT_EQ(r.status, 0) << r.diagnostics;
    std::vector<std::pair<std::string, std::string>> outputs;
    for (const std::string &ext : c.files)
      outputs.emplace_back(ext, read_text("out." + ext));
    if (!c.traces.empty())
      outputs.emplace_back("trace", trace);
    for (const auto &[ext, text] : outputs) {
      fs::path stored = kExpected / (std::string(c.job) + "." + c.arch + "." + ext);
      if (update) {
        fs::create_directories(kExpected);
        write_text(stored, text);
        continue;
      }
      ASSERT_TRUE(fs::exists(stored)) << stored;
      EXPECT_EQ(text, read_text(stored)) << stored;
    }
  }
}

TEST(Explain, UnwritableReportIsAFatalErrorBeforeTheLink) {
  GoldenJob job("cub_reduce", "sm_90");
  test::LinkRun r = job.run("out.cubin", {"--map=no/such/dir/out.map"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.diagnostics,
            "nvlink fatal   : Could not open map file 'no/such/dir/out.map': No such file or directory\n");
  EXPECT_FALSE(fs::exists("out.cubin"));
  r = job.run("out.cubin", {"--resource-report", "."});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.diagnostics.find("Could not open resource report file '.'"), std::string::npos) << r.diagnostics;
}

// "%a" in a report's name is the -arch value (one link per arch under nvcc).
TEST(Explain, ArchPlaceholderInFileNames) {
  GoldenJob job("cub_reduce", "sm_90");
  test::LinkRun r = job.run("out.cubin", {"--resource-report=r.%a.json", "--map=%a/%a.map"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.diagnostics.find("Could not open map file 'sm_90/sm_90.map'"), std::string::npos) << r.diagnostics;
  r = job.run("out.cubin", {"--resource-report=r.%a.json"});
  ASSERT_EQ(r.status, 0) << r.diagnostics;
  EXPECT_NE(read_text("r.sm_90.json").find("\"arch\": \"sm_90\""), std::string::npos);
}

// A failed link still writes the reports, with what was known, and says so.
TEST(Explain, FailedLinkWritesWhatIsKnown) {
  GoldenJob job("err_undefined", "sm_90");
  test::LinkRun plain = job.run("out.cubin");
  ASSERT_EQ(plain.status, 255);
  test::LinkRun r = job.run("out.cubin", {"--map=out.map", "--resource-report=out.json", "--why-extract=w.tsv"});
  EXPECT_EQ(r.status, 255);
  EXPECT_TRUE(r.diagnostics.starts_with(plain.diagnostics)) << r.diagnostics;
  EXPECT_NE(r.diagnostics.find("--map: the link failed; 'out.map' holds what was known"), std::string::npos);
  std::string map = read_text("out.map");
  EXPECT_NE(map.find("# status: LINK FAILED (exit status 255)"), std::string::npos) << map;
  EXPECT_NE(map.find("#0 caller.cubin"), std::string::npos) << map;
  EXPECT_NE(map.find("#1 other.cubin"), std::string::npos) << map;
  EXPECT_NE(map.find("  <- undefined"), std::string::npos) << map;
  std::string json = read_text("out.json");
  EXPECT_NE(json.find("\"link_status\": \"failed\""), std::string::npos) << json;
  EXPECT_EQ(read_text("w.tsv"), "reference\textracted\tsymbol\n");
  EXPECT_FALSE(fs::exists("out.cubin"));
}

// A fatal error (a multiple definition stops the merge) also leaves the map.
TEST(Explain, FatalLinkWritesWhatIsKnown) {
  GoldenJob job("err_multidef", "sm_90");
  ASSERT_EQ(job.run("out.cubin").status, 1);
  test::LinkRun r = job.run("out.cubin", {"--map=out.map"});
  EXPECT_EQ(r.status, 1);
  std::string map = read_text("out.map");
  EXPECT_NE(map.find("# status: LINK FAILED (exit status 1)"), std::string::npos) << map;
  EXPECT_NE(map.find("Inputs (link order)\n  #0 "), std::string::npos) << map;
}

TEST(Explain, UnknownTraceSymbolIsANote) {
  GoldenJob job("cub_reduce", "sm_90");
  testing::internal::CaptureStdout();
  test::LinkRun r = job.run("out.cubin", {"-y", "no_such_symbol", "--trace-symbol=_Z9block_maxPKiPi",
                                          "-Werror"});
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.diagnostics, "nvlink info    : --trace-symbol: no input defines or references 'no_such_symbol'\n");
  EXPECT_EQ(out, "block.cubin: definition of _Z9block_maxPKiPi (GLOBAL FUNC, size 640)\n"
                 "_Z9block_maxPKiPi: definition kept from block.cubin, GLOBAL FUNC at "
                 ".text._Z9block_maxPKiPi+0x0, size 640\n");
  // The demangled name finds the same symbol.
  testing::internal::CaptureStdout();
  job.run("out.cubin", {"-y", "block_max(const int *, int *)"});
  EXPECT_EQ(testing::internal::GetCapturedStdout(), out);
}

// The options are dlink's: hidden from --help, never in the tkinfo command
// line (the byte-identity test above), -y repeatable, one name each time
// (commas kept: demangled names have them).
TEST(Explain, OptionsParse) {
  std::ostringstream sink;
  Diagnostics diag(sink);
  Options o = parse_command_line({"nvlink", "-arch=sm_90", "-o", "x", "a.cubin", "-y", "f(int, int)", "--trace-symbol=c",
                                  "--map", "m", "-why-extract=w", "--resource-report=-"},
                                 diag);
  EXPECT_EQ(o.trace_symbols, (std::vector<std::string>{"f(int, int)", "c"}));
  EXPECT_EQ(o.map_file, "m");
  EXPECT_EQ(o.why_extract_file, "w");
  EXPECT_EQ(o.resource_report_file, "-");
  EXPECT_EQ(o.canonical_command_line.find("map"), std::string::npos);
  EXPECT_EQ(help_text().find("trace-symbol"), std::string::npos);
  EXPECT_EQ(help_text().find("--map"), std::string::npos);
}

// The deepest stack path is reported only when its frames add up to the
// stack the image records.
TEST(Explain, StackPathMustAddUpToTheRecordedStack) {
  CubinResources res;
  FunctionResources k, f, g;
  k.name = "k", k.kernel = true, k.frame = 16, k.callees = {"f", "g"}, k.stack = 16 + 48;
  f.name = "f", f.frame = 8;
  g.name = "g", g.frame = 48;
  res.functions = {k, f, g};
  std::vector<StackStep> path = deepest_stack_path(res, res.functions[0]);
  ASSERT_EQ(path.size(), 2u);
  EXPECT_EQ(path[1].function, "g");
  EXPECT_EQ(path[1].frame, 48u);
  res.functions[0].stack = 100; // not what the frames give: no path
  EXPECT_TRUE(deepest_stack_path(res, res.functions[0]).empty());
  res.functions[0].stack = 64;
  res.functions[2].callees = {"k"}; // a cycle
  EXPECT_TRUE(reaches_recursion(res, res.functions[0]));
  EXPECT_TRUE(deepest_stack_path(res, res.functions[0]).empty());
}
