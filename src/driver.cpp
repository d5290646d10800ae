// link(): the pipeline, stage by stage. Each stage lives in the file named
// after it; this function is the table of contents.
#include "dlink/driver.h"

#include "arch_format.h"
#include "callgraph_dump.h"
#include "explain/explain.h"
#include "dead_code.h"
#include "debug_link.h"
#include "input_files.h"
#include "layout.h"
#include "link_context.h"
#include "merge.h"
#include "mercury/mercury.h"
#include "mercury/output.h"
#include "mercury/refinalize.h"
#include "mercury/relocatable_link.h"
#include "nv_info.h"
#include "pass_timer.h"
#include "registration.h"
#include "relocatable.h"
#include "reloc/relocate.h"
#include "texture_slots.h"
#include "writer.h"

#include "dlink/log.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace dlink {

namespace {

// -uidx FILE is read before any input, after the command line. nvlink opens
// it (else "Could not open input file"), takes its size (zero, as for an
// empty file or a character device: "Could not read file"; a directory fails
// the allocation of its bytes) and rejects every file it was given in
// measurement as "not uidx input": no CUDA 13.0 tool writes a uidx file
// (nvcc never passes -uidx), so no valid one exists to measure
// (docs/notes/relocatable.md).
void check_uidx_file(Context &ctx) {
  const std::string &uidx = ctx.opts.uidx_file;
  if (uidx.empty())
    return;
  std::error_code ec;
  if (std::filesystem::is_directory(uidx, ec))
    ctx.diag.fatal("Memory allocation failure");
  FILE *f = std::fopen(uidx.c_str(), "rb");
  if (!f)
    ctx.diag.fatal(fmt::format("Could not open input file '{}'", uidx));
  long size = std::fseek(f, 0, SEEK_END) == 0 ? std::ftell(f) : -1;
  std::fclose(f);
  if (size <= 0)
    ctx.diag.fatal(fmt::format("Could not read file '{}'", uidx));
  ctx.diag.fatal("Internal error: not uidx input");
}

bool has_unified_entries(const Context &ctx) {
  for (const InputObject *obj : ctx.inputs)
    for (const ElfSection &sec : obj->elf.sections)
      if (sec.type == SHT_CUDA_UFT_ENTRY || sec.type == SHT_CUDA_UDT_ENTRY)
        return true;
  return false;
}

void check_command_line(Context &ctx) {
  if (!ctx.opts.arch)
    ctx.diag.fatal("Unknown arch name '(null)'");
  ctx.arch = *ctx.opts.arch;
  if (ctx.arch.is_mercury())
    select_output_hooks(ctx, &mercury_output_hooks()); // sm_100+: the capsule-Mercury sections
  if (!ctx.opts.threads.empty() && ctx.opts.threads[0] == '-')
    ctx.diag.fatal(fmt::format("--threads {}: expected a positive number (0: every core)", ctx.opts.threads));
  check_uidx_file(ctx);
}

// -time FILE|-: the CSV timing table. Without LTO nvlink has no sub-tool
// rows to add: it writes the heading row when the file is empty ("-": to
// stdout).
void write_timing_table(const Options &opts, Diagnostics &diag) {
  if (opts.time_file.empty())
    return;
  constexpr std::string_view kHeading = "source file name , phase name , phase input files , "
                                        "phase output file , arch , tool, metric , unit\n";
  if (opts.time_file == "-") {
    std::fwrite(kHeading.data(), 1, kHeading.size(), stdout);
    return;
  }
  std::error_code ec;
  if (std::filesystem::is_regular_file(opts.time_file, ec) && std::filesystem::file_size(opts.time_file, ec) > 0)
    return;
  FILE *f = std::fopen(opts.time_file.c_str(), "ab");
  if (!f)
    diag.fatal(fmt::format("Cannot open file '{}'", opts.time_file));
  std::fwrite(kHeading.data(), 1, kHeading.size(), f);
  std::fclose(f);
}

// -dump-callgraph and -dump-callgraph-no-demangle print the same text
// (both demangle).
bool wants_callgraph_dump(const Context &ctx) {
  return ctx.opts.dump_callgraph || ctx.opts.dump_callgraph_no_demangle;
}

// nvlink stops after a stage that reported errors.
bool checkpoint(const Context &ctx) { return !ctx.diag.has_errors(); }

// nvlink's last step once the inputs were merged, even after errors:
// --register-link-binaries.
int finish(Context &ctx) {
  write_registration_file(ctx);
  return ctx.diag.exit_code();
}

// After undefined references nvlink still lays memory out and computes the
// resources (with their warnings and errors: stack sizes, too much constant
// or shared data), then reports the references; -v reports the resources.
// No output is written.
int finish_after_errors(Context &ctx) {
  std::string callgraph = wants_callgraph_dump(ctx) ? describe_callgraph(ctx) : "";
  if (ctx.opts.verbose || !ctx.out.undefined_errors.empty()) {
    layout_memory(ctx);
    build_nv_info(ctx);
  }
  for (const std::string &e : ctx.out.undefined_errors)
    ctx.diag.error(e);
  ctx.diag.stream() << callgraph;
  if (ctx.opts.verbose)
    report_resources(ctx);
  return finish(ctx);
}

// Runs the stages by name; with --dlink-time-passes or DLINK_LOG=debug it
// prints one line per stage with its wall time and the resident memory after
// it (stderr), and the total. Off, a stage costs one test of a flag.
class Passes {
public:
  explicit Passes(Context &ctx) : ctx_(ctx), timed_(timing_enabled(ctx)) {
    if (timed_)
      start_ = Clock::now();
  }
  Passes(const Passes &) = delete;
  Passes &operator=(const Passes &) = delete;
  ~Passes() {
    if (timed_)
      report_timing("total", since(start_));
  }

  void operator()(std::string_view name, void (*stage)(Context &)) {
    if (!timed_) {
      stage(ctx_);
      return;
    }
    Clock::time_point t = Clock::now();
    stage(ctx_);
    report_timing(name, since(t));
  }

private:
  using Clock = std::chrono::steady_clock;
  static double since(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
  }
  Context &ctx_;
  bool timed_;
  Clock::time_point start_;
};

// -r: the merged inputs written back in their relocatable form; nothing is
// laid out or computed, only the link-time references are resolved
// (relocatable.h).
int run_relocatable_tail(Context &ctx, Passes &pass) {
  if (!checkpoint(ctx))
    return finish(ctx);
  if (ctx.arch.is_mercury())
    pass("place_passed_over_bank_copies", place_passed_over_bank_copies); // sm_100+: weak copies' tables
  pass("finish_relocatable", finish_relocatable);          // undefined symbols, EXTERNS, prototypes
  pass("define_relocatable_dynamic_shared", define_relocatable_dynamic_shared); // extern __shared__ arrays
  if (!checkpoint(ctx))
    return finish(ctx);
  if (ctx.arch.is_mercury())
    pass("place_relocatable_header_indices", place_relocatable_header_indices); // sm_100+: texture references' slot base
  pass("apply_relocations", apply_relocations);            // bank, shared and .debug_frame references resolved
  if (ctx.arch.is_mercury()) {
    pass("insert_debug_exit_sequences", insert_debug_exit_sequences); // sm_100+ -g: kernels compiled without -G
    pass("refinalize_unified_stubs", refinalize_unified_stubs); // sm_100+: unified functions' stubs
  }
  if (ctx.opts.verbose)
    pass("report_resources", report_resources);            // -v: as merged (nothing laid out)
  if (ctx.arch.is_mercury()) {
    pass("finish_relocatable_mercury", finish_relocatable_mercury); // sm_100+: undefined symbols' types
    pass("finish_late_sections", finish_late_sections);    // sm_100+: parameter banks, bank names
    pass("build_mercury", build_mercury);                  // sm_100+: the capsule-Mercury twin sections
  }
  pass("write_output", write_output);                      // section/symbol order, tables, headers, bytes
  if (!checkpoint(ctx))
    return finish(ctx);
  pass("commit_output", commit_output);                    // temp file + rename: never a partial output
  return finish(ctx);
}

// The pipeline itself.
int run_link(Context &ctx) {
  const Options &opts = ctx.opts;
  Diagnostics &diag = ctx.diag;
  check_command_line(ctx);
  open_explanations(ctx);  // --map, --why-extract, --resource-report files (src/explain)
  write_timing_table(opts, diag);
  Passes pass(ctx);

  pass("read_inputs", read_inputs);                        // files -> relocatable cubins, in link order
  check_prelinked_inputs(ctx);                             // inputs from a -r link marked
  if (!checkpoint(ctx) || ctx.arch.kind == Arch::Kind::Compute)
    return diag.exit_code();  // a compute_XX target: inputs checked, no output
  pass("validate_inputs", validate_inputs);                // every input's structure checked (corrupt: fatal)
  pass("choose_weak_definitions", choose_weak_definitions); // weak functions: the copy kept (fewest registers)
  if (!relocatable_output(ctx))
    pass("find_live_functions", find_live_functions);      // dead code: the functions that reach the output (-r: all)
  pass("collect_prototype_strings", collect_prototype_strings); // .strtab's first strings, dead code's too
  pass("merge_inputs", merge_inputs);                      // sections, symbols, relocations, metadata merged
  mark_unreachable_functions(ctx);                         // -g, --preserve-relocs: what dead code would be
  // Unified functions and variables (PTX `.attribute(.unified(...))`: the
  // inputs' .nv.uft.entry/.nv.udt.entry) need an index file (-uidx): nvlink
  // stops after the merge, before undefined references, even when pruning
  // removes them; not with -r (docs/notes/diagnostics.md "JIT relocation
  // check").
  if (checkpoint(ctx) && !relocatable_output(ctx) && has_unified_entries(ctx))
    diag.fatal("Unified symbols found but index file not specified.");
  if (relocatable_output(ctx))
    return run_relocatable_tail(ctx, pass);
  pass("resolve_undefined", resolve_undefined);            // undefined references found; symbol set frozen
  if (!checkpoint(ctx) || !ctx.out.undefined_errors.empty())
    return finish_after_errors(ctx);

  pass("layout_memory", layout_memory);                    // shared/constant/global offsets fixed
  pass("allocate_texture_slots", allocate_texture_slots);  // .texref/.samplerref/.surfref header slots
  if (arch_format(ctx.arch).function_banks_after_layout)
    pass("merge_function_banks", merge_function_banks);    // sm_100+: function banks into kernels (after the slots)
  pass("apply_relocations", apply_relocations);            // link-time relocations applied, the rest kept
  pass("refinalize_kernels", refinalize_kernels);          // sm_100+: scoreboards of re-finalized kernels
  pass("pack_constant_bank", pack_constant_bank);          // kernel pruning: identical constant banks shared
  std::string callgraph = wants_callgraph_dump(ctx) ? describe_callgraph(ctx) : "";
  pass("build_nv_info", build_nv_info);                    // EIATTR records rewritten, stack sizes computed
  diag.stream() << callgraph; // -dump-callgraph (after the stack warnings)
  if (opts.verbose)
    pass("report_resources", report_resources);            // -v: gmem and per-kernel resource lines
  pass("finish_sections", finish_sections);                // callgraph/prototype; global symbols fixed
  pass("build_mercury", build_mercury);                    // sm_100+: the capsule-Mercury twin sections
  pass("write_output", write_output);                      // section/symbol order, tables, headers, bytes
  if (!checkpoint(ctx))
    return finish(ctx);

  pass("commit_output", commit_output);                    // temp file + rename: never a partial output
  return finish(ctx);
}

} // namespace

// A link whose process exits next leaves its state to the OS: tearing down
// tens of thousands of sections, records and map nodes one by one costs
// about a tenth of a large link. (Kept reachable from here, so that leak
// checkers do not report it.)
const Context *state_left_to_exit = nullptr;

int link(const Options &opts, Diagnostics &diag, Teardown teardown) {
  auto ctx = std::make_unique<Context>(opts, diag);
  int status;
  try {
    try {
      status = run_link(*ctx);
    } catch (const InputError &e) {
      // The validation stage checks the inputs before the merge; a structure
      // a later stage still finds malformed (a section read by name, whatever
      // its type) ends the link the same way, never in std::terminate. No
      // output file exists yet: it is only committed at the end.
      diag.fatal(fmt::format("Corrupt input file: {}", e.what()));
    }
  } catch (const FatalError &) {
    // The explanations say what was known when the link stopped.
    write_explanations(*ctx, {.status = 1, .fatal = true,
                              .image_built = ctx->output_elf.sections.size() > 1});
    if (teardown == Teardown::LeaveToExit)
      state_left_to_exit = ctx.release();
    throw;
  }
  // --map, --why-extract, --trace-symbol, --resource-report: reports about
  // the link, written after it (no output byte depends on them).
  write_explanations(*ctx, {.status = status, .image_built = ctx->output_elf.sections.size() > 1});
  if (status == 0 && diag.has_errors())
    status = diag.exit_code(); // a report could not be written
  if (teardown == Teardown::LeaveToExit)
    state_left_to_exit = ctx.release();
  return status;
}

} // namespace dlink
