// Dead-code elimination and kernel-pruning details (dead_code.h, merge.h)
// checked on stored golden inputs.
#include "dead_code.h"
#include "dlink/diag.h"
#include "dlink/options.h"
#include "input_files.h"
#include "link_context.h"
#include "merge.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>

namespace fs = std::filesystem;
using namespace dlink;

namespace {

// Which functions of the job's single input survive dead-code elimination.
std::map<std::string, bool> live_functions(const fs::path &job, const std::vector<std::string> &opts) {
  std::ostringstream err;
  Diagnostics diag(err);
  std::vector<std::string> argv = {"nvlink", "-arch=sm_80"};
  argv.insert(argv.end(), opts.begin(), opts.end());
  argv.push_back((job / "p0.cubin").string());
  argv.insert(argv.end(), {"-o", "unused.cubin"});
  Options o = parse_command_line(argv, diag);
  Context ctx(o, diag);
  ctx.arch = *o.arch;
  read_inputs(ctx);
  find_live_functions(ctx);
  std::map<std::string, bool> live;
  const InputObject &obj = *ctx.inputs.at(0);
  for (u32 i = 1; i < obj.symbols.size(); i++)
    if (obj.symbols[i].type() == STT_FUNC)
      live[std::string(obj.symbols[i].name)] = is_live_function(ctx, obj, i);
  return live;
}

} // namespace

// An address-taken function survives, but calls out of it are followed only
// when something live reaches it (directly, or through an indirect call with
// its prototype): testdata/src/kused_address_taken.
TEST(DeadCode, AddressTakenFunctionsAreKeptButNotRoots) {
  const fs::path job = fs::path(DLINK_TESTDATA) / "golden" / "kused_address_taken" / "sm_80";
  auto live = live_functions(job, {"-kernels-used=k0"});
  EXPECT_TRUE(live["k0"]);
  EXPECT_FALSE(live["k1"]);
  EXPECT_TRUE(live["f3"]); // taken by pruned k1
  EXPECT_FALSE(live["f2"]); // called only by f3
  EXPECT_TRUE(live["f4"]); // taken by k0, never called (no site with its prototype)
  EXPECT_FALSE(live["f5"]); // called only by f4
  EXPECT_TRUE(live["f6"]); // called through a pointer by k0
  EXPECT_TRUE(live["f1"]); // called by f6
  // Without pruning k1 is live and its indirect call reaches f3, f2 and f1.
  live = live_functions(job, {});
  EXPECT_TRUE(live["f2"]);
  EXPECT_FALSE(live["f5"]);
}

// The (size, alignment) pairs for which kernel pruning shares identical
// constant banks (measured: one variable of 1-80 bytes at alignments 1-16).
TEST(ConstantBank, DedupSizes) {
  for (u64 size : {12, 16, 20, 24, 32, 48, 64})
    for (u64 align : {1, 2, 4}) EXPECT_TRUE(constant_bank_dedups(size, align)) << size << "/" << align;
  EXPECT_TRUE(constant_bank_dedups(4, 4));
  EXPECT_FALSE(constant_bank_dedups(4, 1));
  EXPECT_FALSE(constant_bank_dedups(4, 2));
  EXPECT_TRUE(constant_bank_dedups(8, 8));
  EXPECT_FALSE(constant_bank_dedups(8, 4));
  for (u64 size : {1, 2, 3, 28, 36, 40, 44, 52, 56, 60, 68, 80, 96, 128, 256})
    EXPECT_FALSE(constant_bank_dedups(size, 4)) << size;
}
