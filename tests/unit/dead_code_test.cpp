// Dead-code elimination and kernel-pruning details (dead_code.h, merge.h)
// checked on stored golden inputs.
#include "dead_code.h"
#include "dlink/diag.h"
#include "dlink/options.h"
#include "input_files.h"
#include "link_context.h"
#include "merge.h"
#include "output_model.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>

namespace fs = std::filesystem;
using namespace dlink;

namespace {

// Which functions of the job's single input survive dead-code elimination.
std::map<std::string, bool> live_functions(const fs::path &job, const std::vector<std::string> &opts,
                                           const std::string &input = "p0.cubin",
                                           size_t *kept_kernels = nullptr) {
  std::ostringstream err;
  Diagnostics diag(err);
  std::vector<std::string> argv = {"nvlink", "-arch=sm_80"};
  argv.insert(argv.end(), opts.begin(), opts.end());
  argv.push_back((job / input).string());
  argv.insert(argv.end(), {"-o", "unused.cubin"});
  Options o = parse_command_line(argv, diag);
  Context ctx(o, diag);
  ctx.arch = *o.arch;
  read_inputs(ctx);
  find_live_functions(ctx);
  if (kept_kernels)
    *kept_kernels = ctx.kept_kernel_count;
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

// Kernels that -kernels-used keeps only because their address is taken are
// merged like device functions (no MIN_STACK_SIZE with one kept kernel):
// testdata/src/kused_nonroot_kernels.
TEST(DeadCode, AddressTakenKernelsAreNotRootsUnderKernelsUsed) {
  const fs::path job = fs::path(DLINK_TESTDATA) / "golden" / "kused_nonroot_kernels" / "sm_80";
  std::ostringstream err;
  Diagnostics diag(err);
  Options o = parse_command_line(
      {"nvlink", "-arch=sm_80", "-kernels-used=k3", (job / "bt.cubin").string(), "-o", "unused.cubin"},
      diag);
  Context ctx(o, diag);
  ctx.arch = *o.arch;
  read_inputs(ctx);
  find_live_functions(ctx);
  merge_inputs(ctx);
  auto sym = [&](std::string_view name) { return find_global(ctx, name); };
  ASSERT_TRUE(sym("_Z2k3Pi") && sym("_Z2kcPi") && sym("_Z2kdPi"));
  EXPECT_FALSE(sym("_Z2k3Pi")->non_root_entry);
  EXPECT_TRUE(sym("_Z2kcPi")->non_root_entry);
  EXPECT_TRUE(sym("_Z2kdPi")->non_root_entry);
  EXPECT_TRUE(sym("_Z2kcPi")->is_entry()); // the symbol stays an entry
  // The function pass made no .nv.info/.nv.shared for them: their .nv.info
  // comes after k3's and fb's, in section order.
  std::vector<std::string> infos;
  for (const OutputSection *s : ctx.out.sections)
    if (s->kind == SectionKind::FunctionInfo)
      infos.emplace_back(s->name);
  EXPECT_EQ(infos, (std::vector<std::string>{".nv.info._Z2k3Pi", ".nv.info._Z2fbPi",
                                             ".nv.info._Z2kdPi", ".nv.info._Z2kcPi"}));
}

// An address-taken kernel is no root under -kernels-used when exactly one
// kernel is kept, and a root again with none or several (its callee fb$1
// survives): testdata/src/kused_nonroot_callees.
TEST(DeadCode, AddressTakenKernelsAreRootsUnlessOneKernelIsKept) {
  const fs::path job = fs::path(DLINK_TESTDATA) / "golden" / "kused_nonroot_callees" / "sm_80";
  size_t kept = 0;
  auto live = live_functions(job, {"-kernels-used=k0"}, "c3.cubin", &kept);
  EXPECT_EQ(kept, 1u);
  EXPECT_TRUE(live["_Z2kcPi"]);
  EXPECT_FALSE(live["_Z2fbPi$1"]);
  live = live_functions(job, {"-kernels-used=k0", "-kernels-used=k1"}, "c3.cubin", &kept);
  EXPECT_EQ(kept, 2u);
  EXPECT_TRUE(live["_Z2fbPi$1"]);
  live = live_functions(job, {"-kernels-used=zzz"}, "c3.cubin", &kept);
  EXPECT_EQ(kept, 0u);
  EXPECT_TRUE(live["_Z2kcPi"]);
  EXPECT_TRUE(live["_Z2fbPi$1"]);
  EXPECT_FALSE(live["_Z2k0Pi"]);
}
