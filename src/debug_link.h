// nvlink -g (device-debug link, what `nvcc -G -dlink` passes): what the mode
// changes, measured on nvlink 13.0.88 (docs/notes/debug-link.md).
//
// The DWARF sections themselves need nothing new: nvlink -g merges them as
// it merges a -G input linked without -g (concatenated in link order, the
// .rela.debug_* sections kept, references into .debug_frame and the
// pubnames/pubtypes relocations applied; merge.cpp, reloc/relocate.cpp and, on
// sm_100+, mercury/). What -g changes is spread over the stages, each a
// small hook naming this file:
//   * no function and no kernel is removed (dead_code.cpp: -kernels-used and
//     host references are ignored, every function stays live), so every
//     function's DWARF keeps its relocations;
//   * .nv.prototype keeps the entries of functions nothing calls (output/finish_sections.cpp);
//   * a kernel's own __shared__ variables stay local symbols, at their offset
//     after the reserved shared prefix (merge.cpp, output/synthetic.cpp);
//     namespace-scope and device-function ones keep symbols where the layout
//     put them, in the kernel's section or .nv_debug.shared (link/symbols.cpp,
//     layout.cpp layout_shared, place_debug_shared_symbols below);
//   * PTX inputs are compiled with ptxas -g (ptx_jit.cpp);
//   * sm_100+: no kernel is re-finalized (mercury/refinalize.cpp);
//   * .note.nv.tkinfo names the output (basename of -o) and records the input
//     files (options.cpp, output/synthetic.cpp).
#pragma once

#include "link_context.h"

namespace dlink {

// The -g links dlink cannot reproduce are refused here, before anything is
// written (after the merge and the undefined-reference errors, which nvlink
// reports the same way; the check needs the merged shared variables):
//   * sm_100+ kernels of inputs compiled without -G: nvlink -g re-finalizes
//     them from their capsule with the debug exit sequence (MEMBAR before
//     each EXIT), which dlink does not model;
//   * namespace-scope, sized extern and device-function __shared__
//     variables: nvlink -g gives them symbols in .nv_debug.shared by a
//     layout rule not measured yet.
// No-op without -g.
void check_debug_link(Context &ctx);

// -g without -suppress-debug-info: __shared__ variables and arrays become
// symbols (with -suppress-debug-info nvlink handles shared memory as a link
// without -g does: glink_suppress, probes v0, v2, dd.cu).
//
// --preserve-relocs (without -g) keeps the same symbols, STV_INTERNAL, as
// its resolved relocations name them (measured with tools/differential-ptx
// --mode preserve-relocs: module-scope .shared arrays used by one kernel,
// in its section, or by several, in .nv_debug.shared).
inline bool debug_shared_symbols(const Context &ctx) {
  return (ctx.opts.debug && !ctx.opts.suppress_debug_info) ||
         (ctx.opts.preserve_relocs && !ctx.opts.debug);
}

// -g: an `extern __shared__` array (dynamic shared memory) is a global
// OBJECT symbol of .nv_debug.shared (whose section symbol stays and whose
// size is the reserved shared prefix, sm_90+), created where the merge
// first sees the array, size 0, its value the array's start after the
// static shared data of the kernels using it (sm_100+: plus the reserved
// prefix). Measured with dynamic_shared, dynamic_shared_pad, dlink_dynshared
// and glink_shared; an array that starts at different offsets in the
// functions using it is refused. Called by layout_memory once the dynamic
// window is laid out. No-op without -g.
void place_debug_shared_symbols(Context &ctx);

// What .symtab adds to a __shared__ symbol's offset: the reserved prefix
// for a kernel's own variables (-g, not -r), namespace-scope ones, and
// dynamic arrays on sm_100+ or once a namespace-scope variable is
// program-wide (program_wide: debug_shared_variables_end() > 0).
u64 debug_shared_symbol_bias(const Context &ctx, const OutputSymbol &sym, bool program_wide);

// -g: the end of the program-wide namespace-scope __shared__ variables
// (symbols of .nv_debug.shared), which .nv_debug.shared covers after the
// reserved prefix; 0 without -g.
u64 debug_shared_variables_end(const Context &ctx);

} // namespace dlink
