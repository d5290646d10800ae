// -lto / -dlto (lto.h).
#include "lto/lto.h"

#include "dlink/fatbin.h"

namespace dlink::lto {

namespace {

// As for PTX entries: lto_80 is used for sm_90 (measured), lto_90 is not for
// sm_80 ("SM Arch ('sm_80') not found", measured).
bool usable(const FatbinEntry &e, const Arch &t) {
  if (!e.is_ltoir())
    return false;
  if (e.arch_specific())
    return e.sm == t.sm && t.variant == Arch::Variant::Specific;
  if (e.family())
    return e.sm <= t.sm && family_of(e.sm) == family_of(t.sm);
  return e.sm <= t.sm;
}

} // namespace

const FatbinEntry *select_ltoir_entry(std::span<const FatbinEntry> entries, const Arch &target) {
  const FatbinEntry *best = nullptr;
  for (const FatbinEntry &e : entries)
    if (usable(e, target) && (!best || e.sm > best->sm))
      best = &e;
  return best;
}

void linked_input(Context &ctx, std::string_view name, bool lto_object) {
  if (!ctx.opts.lto)
    return;
  if (lto_object) {
    ctx.lto.objects.emplace_back(name);
    return;
  }
  ctx.lto.other_inputs++;
  ctx.diag.info(
      fmt::format("requested LTO but '{}' not built for LTO so doing partial LTO", name));
}

void cudadevrt_seen(Context &ctx) { ctx.lto.cudadevrt_seen = true; }

void no_ptx_for_lto_input(Context &ctx, std::string_view name, const FatbinEntry &ir) {
  ctx.diag.fatal(fmt::format(
      "'{}' carries only LTO IR ({}) for {}: dlink cannot compile LTO IR (libNVVM's public API "
      "does not accept it) and the object has no PTX to link instead; build it with PTX as "
      "well (nvcc -dlto does by default; -gencode arch=compute_{},code=[compute_{},lto_{}])",
      name, ir.arch_name(), ctx.arch.name(), ir.sm, ir.sm, ir.sm));
}

void finish_inputs(Context &ctx) {
  if (!ctx.opts.lto || ctx.diag.has_errors())
    return;
  Diagnostics &diag = ctx.diag;
  if (ctx.lto.objects.empty()) {
    // Not silenced by -w; an error and "merge_elf failed" under -Werror;
    // silenced by -disable-infos (measured).
    constexpr const char *kIgnoring = "Ignoring -dlto option because no LTO objects found";
    if (ctx.opts.disable_infos)
      return;
    if (diag.warnings_as_errors) {
      diag.error(kIgnoring);
      diag.fatal("merge_elf failed");
    }
    diag.warning_always(kIgnoring);
    return;
  }
  if (!ctx.lto.cudadevrt_seen)
    diag.fatal("expected libcudadevrt object");
  // nvlink -emit-ptx writes libNVVM's PTX as the output file (also for a
  // compute_XX target).
  if (ctx.opts.emit_ptx)
    diag.fatal("-emit-ptx is not supported by dlink: it cannot compile LTO IR, so there is no "
               "link-time PTX to emit");
  // A compute_XX target writes no image: nothing is linked without LTO
  // (nvlink prints nothing either).
  if (ctx.arch.kind == Arch::Kind::Compute)
    return;
  const size_t n = ctx.lto.objects.size();
  diag.warning(fmt::format(
      "{} LTO input{} ('{}'{}) linked without link-time optimisation: dlink cannot compile LTO IR "
      "(libNVVM's public API does not accept it), so it links the PTX or cubin {} also carr{}",
      n, n == 1 ? "" : "s", ctx.lto.objects.front(), n == 1 ? "" : ", ...",
      n == 1 ? "this input" : "these inputs", n == 1 ? "ies" : "y"));
}

} // namespace dlink::lto
