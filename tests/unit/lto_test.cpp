// -lto / -dlto input handling (src/lto/lto.h): which LTO-IR entry counts for
// a target, and the messages after reading the inputs, as measured on
// nvlink 13.0.88 (docs/notes/lto.md).
#include "lto/lto.h"

#include <gtest/gtest.h>

#include <sstream>

namespace dlink {
namespace {

FatbinEntry ltoir(u32 sm, u64 flags = 0) {
  FatbinEntry e;
  e.kind = FATBIN_KIND_LTOIR;
  e.sm = sm;
  e.flags = 0x18011 | flags;
  return e;
}

Arch sm(u32 n, Arch::Variant v = Arch::Variant::None) {
  Arch a;
  a.sm = n;
  a.variant = v;
  return a;
}

TEST(LtoSelect, OlderIrServesNewerTargetNotTheReverse) {
  std::vector<FatbinEntry> e = {ltoir(80)};
  EXPECT_NE(lto::select_ltoir_entry(e, sm(90)), nullptr); // lto_80 linked for sm_90
  std::vector<FatbinEntry> f = {ltoir(90)};
  EXPECT_EQ(lto::select_ltoir_entry(f, sm(80)), nullptr); // "SM Arch ('sm_80') not found"
}

TEST(LtoSelect, NewestUsableWinsAndOtherKindsAreIgnored) {
  FatbinEntry ptx;
  ptx.kind = FATBIN_KIND_PTX;
  ptx.sm = 90;
  std::vector<FatbinEntry> e = {ltoir(75), ptx, ltoir(86), ltoir(100)};
  const FatbinEntry *got = lto::select_ltoir_entry(e, sm(90));
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(got->sm, 86u);
}

TEST(LtoSelect, ArchSpecificIrOnlyForItsOwnSpecificTarget) {
  std::vector<FatbinEntry> e = {ltoir(90, FATBIN_FLAG_ARCH_SPECIFIC)};
  EXPECT_EQ(lto::select_ltoir_entry(e, sm(90)), nullptr);
  EXPECT_NE(lto::select_ltoir_entry(e, sm(90, Arch::Variant::Specific)), nullptr);
}

struct LtoRun {
  std::ostringstream err;
  Diagnostics diag{err};
  Options opts;
  std::unique_ptr<Context> ctx;
  LtoRun() {
    opts.lto = true;
    opts.nvvmpath = "nvvm";
  }
  Context &make() {
    ctx = std::make_unique<Context>(opts, diag);
    ctx->arch = sm(90);
    return *ctx;
  }
};

TEST(LtoFinish, NoLtoInputIsNvlinksPartialLto) {
  LtoRun r;
  Context &ctx = r.make();
  lto::linked_input(ctx, "main.o", false);
  lto::linked_input(ctx, "libvec.a:vec.o", false);
  lto::finish_inputs(ctx);
  EXPECT_EQ(r.err.str(),
            "nvlink info    : requested LTO but 'main.o' not built for LTO so doing partial LTO\n"
            "nvlink info    : requested LTO but 'libvec.a:vec.o' not built for LTO so doing partial "
            "LTO\n"
            "nvlink warning : Ignoring -dlto option because no LTO objects found\n");
}

TEST(LtoFinish, IgnoringWarningSurvivesWButNotDisableInfos) {
  LtoRun r;
  r.diag.suppress_warnings = true;
  lto::finish_inputs(r.make());
  EXPECT_EQ(r.err.str(), "nvlink warning : Ignoring -dlto option because no LTO objects found\n");
  LtoRun q;
  q.opts.disable_infos = true;
  lto::finish_inputs(q.make());
  EXPECT_EQ(q.err.str(), "");
}

TEST(LtoFinish, IgnoringWarningUnderWerrorIsMergeElfFailed) {
  LtoRun r;
  r.diag.warnings_as_errors = true;
  EXPECT_THROW(lto::finish_inputs(r.make()), FatalError);
  EXPECT_EQ(r.err.str(), "nvlink error   : Ignoring -dlto option because no LTO objects found\n"
                         "nvlink fatal   : merge_elf failed\n");
}

TEST(LtoFinish, LtoInputsNeedLibcudadevrt) {
  LtoRun r;
  Context &ctx = r.make();
  lto::linked_input(ctx, "a.o", true);
  EXPECT_THROW(lto::finish_inputs(ctx), FatalError);
  EXPECT_EQ(r.err.str(), "nvlink fatal   : expected libcudadevrt object\n");
}

TEST(LtoFinish, LtoInputsLinkTheirPtxWithOneWarning) {
  LtoRun r;
  Context &ctx = r.make();
  lto::linked_input(ctx, "a.o", true);
  lto::linked_input(ctx, "plain.o", false);
  lto::linked_input(ctx, "b.o", true);
  lto::cudadevrt_seen(ctx);
  lto::finish_inputs(ctx);
  std::string text = r.err.str();
  EXPECT_EQ(text.rfind("nvlink info    : requested LTO but 'plain.o' not built for LTO", 0), 0u);
  EXPECT_NE(text.find("nvlink warning : 2 LTO inputs ('a.o', ...) linked without link-time "
                      "optimisation"),
            std::string::npos);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
}

TEST(LtoFinish, ComputeTargetChecksLibcudadevrtButWarnsNothing) {
  LtoRun r;
  Context &ctx = r.make();
  ctx.arch.kind = Arch::Kind::Compute;
  lto::linked_input(ctx, "a.o", true);
  EXPECT_THROW(lto::finish_inputs(ctx), FatalError);
  EXPECT_EQ(r.err.str(), "nvlink fatal   : expected libcudadevrt object\n");
  LtoRun q;
  Context &qctx = q.make();
  qctx.arch.kind = Arch::Kind::Compute;
  lto::linked_input(qctx, "a.o", true);
  lto::cudadevrt_seen(qctx);
  lto::finish_inputs(qctx);
  EXPECT_EQ(q.err.str(), "");
}

TEST(LtoFinish, IrOnlyInputIsRefused) {
  LtoRun r;
  Context &ctx = r.make();
  FatbinEntry ir = ltoir(90);
  EXPECT_THROW(lto::no_ptx_for_lto_input(ctx, "la.o", ir), FatalError);
  EXPECT_NE(r.err.str().find("'la.o' carries only LTO IR (lto_90) for sm_90"), std::string::npos);
}

} // namespace
} // namespace dlink
