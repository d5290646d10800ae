// libFuzzer target: a whole link, in process, with one input replaced by the
// fuzzer's data and the other inputs intact.
//
// Input layout: one selector byte, then the bytes of the replaced input. The
// jobs are those of link_jobs.txt (a testdata directory and the dlink
// arguments; "@name" marks an input). With N jobs, selector k picks job
// k % N and, in it, input (k / N) % (number of inputs); that input is
// written to a scratch directory under its own name (its extension decides
// how the input stage reads it) and the link runs with -o into the same
// directory, exactly as the dlink command would run it (parse_command_line,
// then link()). Fatal diagnostics end the link by throwing FatalError, which
// is caught here as main() catches it; errors end it with status 255. Any
// other exception escaping link(), a crash, a leak or undefined behaviour is
// a finding.
//
// sm_100+ jobs link as any other (on by default). PTX is never compiled:
// DLINK_PTXAS names a missing file, so a PTX input is a fatal "ptxas was not
// found" instead of a ptxas process per run.
#include "fuzz_common.h"

#include "dlink/diag.h"
#include "dlink/driver.h"
#include "dlink/options.h"

#include <cstdio>
#include <sstream>

using namespace dlink;

namespace {

struct Job {
  std::vector<std::string> args;  // argv, inputs as absolute paths
  std::vector<size_t> input_args; // indexes into args of the inputs
};

std::vector<Job> g_jobs;

std::string env_or(const char *name, const char *fallback) {
  const char *v = std::getenv(name);
  return v && *v ? v : fallback;
}

void load_jobs() {
  const std::filesystem::path testdata = env_or("DLINK_TESTDATA", DLINK_TESTDATA);
  const std::filesystem::path table = std::filesystem::path(DLINK_FUZZ_DIR) / "link_jobs.txt";
  std::ifstream in(env_or("DLINK_FUZZ_LINK_JOBS", table.c_str()));
  if (!in) {
    std::fprintf(stderr, "fuzz_link: cannot read %s\n", table.c_str());
    std::abort();
  }
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream words(line);
    std::string dir, word;
    words >> dir;
    Job job;
    job.args.push_back("nvlink");
    while (words >> word) {
      if (word[0] == '@') {
        std::filesystem::path p = testdata / dir / word.substr(1);
        if (!std::filesystem::is_regular_file(p)) {
          std::fprintf(stderr, "fuzz_link: missing input %s\n", p.c_str());
          std::abort();
        }
        job.input_args.push_back(job.args.size());
        job.args.push_back(p.string());
      } else {
        job.args.push_back(word);
      }
    }
    if (job.input_args.empty()) {
      std::fprintf(stderr, "fuzz_link: job without inputs: %s\n", line.c_str());
      std::abort();
    }
    g_jobs.push_back(std::move(job));
  }
  if (g_jobs.empty() || g_jobs.size() > 256) {
    std::fprintf(stderr, "fuzz_link: need 1..256 jobs in %s\n", table.c_str());
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  ::setenv("DLINK_PTXAS", "/nonexistent/dlink-fuzz/ptxas", 1);
  load_jobs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  const size_t k = data[0];
  const Job &job = g_jobs[k % g_jobs.size()];
  const size_t slot = (k / g_jobs.size()) % job.input_args.size();
  std::vector<std::string> args = job.args;
  std::string &replaced = args[job.input_args[slot]];
  const std::filesystem::path input = fuzz::scratch_dir() / std::filesystem::path(replaced).filename();
  fuzz::write_file(input, fuzz::as_span(data + 1, size - 1));
  replaced = input.string();
  const std::filesystem::path output = fuzz::scratch_dir() / "fuzz-out.cubin";
  args.push_back("-o");
  args.push_back(output.string());

  std::ostringstream out;
  Diagnostics diag(out);
  try {
    Options opts = parse_command_line(args, diag);
    (void)link(opts, diag);
  } catch (const FatalError &) {
  }
  std::error_code ec;
  std::filesystem::remove(output, ec);
  std::filesystem::remove(input, ec);
  return 0;
}
