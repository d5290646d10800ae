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
//   * sm_100+: no kernel is re-finalized, but kernels compiled without -G
//     get the debug exit sequence (mercury/refinalize.cpp);
//   * .note.nv.tkinfo names the output (basename of -o) and records the input
//     files (options.cpp, output/synthetic.cpp).
#pragma once

#include "link_context.h"

namespace dlink {

// nvcc -G objects have .debug_info; PTX that the link compiles with -g has
// at least the register maps (PTX without .loc/.file gets no .debug_info).
// sm_100+: nvlink -g gives the kernels of other inputs the debug exit
// sequence (mercury/refinalize.cpp insert_debug_exit_sequences).
bool compiled_with_device_debug(const InputObject &obj);

// -g without -suppress-debug-info: __shared__ variables and arrays become
// symbols (with -suppress-debug-info nvlink handles shared memory as a link
// without -g does: glink_suppress, probes v0, v2, dd.cu).
//
// --preserve-relocs keeps the same symbols, as its resolved relocations
// name them (measured with tools/differential-ptx --mode preserve-relocs:
// module-scope .shared arrays used by one kernel, in its section, or by
// several, in .nv_debug.shared); STV_INTERNAL unless -g writes debug
// information (preserved_shared_internal: `tools/mode-sweep --
// --preserve-relocs -g`, shared_cross, glink_suppress).
inline bool writes_debug_info(const Context &ctx) {
  return ctx.opts.debug && !ctx.opts.suppress_debug_info;
}
inline bool debug_shared_symbols(const Context &ctx) {
  return writes_debug_info(ctx) || ctx.opts.preserve_relocs;
}
inline bool preserved_shared_internal(const Context &ctx) {
  return ctx.opts.preserve_relocs && !writes_debug_info(ctx);
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

// --preserve-relocs without debug information, once a namespace-scope
// __shared__ variable lies in .nv_debug.shared (else nothing is listed and
// no array has a symbol): the references to a dynamic array from functions
// no kernel reaches are listed (resolved with all ones), against the
// array's symbol, a GLOBAL STV_INTERNAL OBJECT of .nv_debug.shared, size 0,
// after the last global symbol of the input that first names the array,
// worth all ones plus the reserved window (0x3ff) on sm_90/sm_90a. On
// sm_75-89 and sm_100+ the symbol is worth all ones when nvlink drops
// unused symbols, so it is dropped, and a listed reference to it stops the
// link ("Internal error: reference to deleted symbol"). References from
// functions a kernel reaches are resolved unlisted. Measured with
// tools/differential-ptx --mode preserve-relocs (seeds 1-100), PTX probes
// and the golden cases preserve_relocs_dynamic, _dynamic_deleted. Called by
// layout_memory.
void place_preserved_dynamic_arrays(Context &ctx);

// Whether a reference to a dynamic array from `target` is one of those:
// code of a function no kernel reaches.
bool lists_dynamic_array_reference(const Context &ctx, const OutputSection &target);

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
