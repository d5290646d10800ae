// Stage 2a: dead function elimination (before merging).
#pragma once

#include "link_context.h"

#include <string>
#include <string_view>
#include <vector>

namespace dlink {

// Which kernels are roots (measured on nvlink 13.0.88, docs/notes/inputs.md
// §10 "Kernel pruning"):
//   * -kernels-used or -variables-used given: only kernels whose name
//     contains one of the -kernels-used values ('*' matches any sequence;
//     nothing else is special); -variables-used alone keeps no kernel.
//     Applies to any input kind, even with -ignore-host-info.
//   * otherwise, unless -ignore-host-info: when every object read is a host
//     object with .nvHR lists (no cubin, fatbin, PTX, host-only or non-rdc
//     object, no cubin archive member) and one of their .nvHRKE/.nvHRKI
//     sections is longer than one NUL byte, only kernels matching one of
//     those glob patterns (none at all for an `ld -r` object whose lists are
//     "\0\0": nvlink then drops every kernel). The lists of a cudadevrt
//     archive's members (input_files.h is_cudadevrt_name) do not switch this
//     on, but once on, their patterns count too.
//     -use-host-info changes nothing.
//   * otherwise every kernel.
// Variables are not removed here (unreferenced __constant__ variables of
// banks over 64 KiB are: relayout_constant_bank, merge.h).
struct KernelFilter {
  enum class Mode { All, HostReferences, KernelsUsed };
  Mode mode = Mode::All;
  std::vector<std::string> patterns; // glob patterns, '*' only
  bool keeps(std::string_view kernel) const;
};
KernelFilter kernel_filter(const Context &ctx);

// Marks, for every function symbol of every input, whether it is reachable
// from a kernel through the inputs' call graphs (direct calls, and indirect
// call sites to the address-taken functions with the site's prototype).
// Address-taken functions are kept too, without following their calls
// (address-taken kernels are roots under host-reference pruning, and under
// -kernels-used unless it keeps exactly one kernel: ctx.kept_kernel_count). nvlink drops
// the other functions before merging: their sections, symbols, relocations,
// metadata and even their names never reach the output. Variables are never
// removed (docs/notes/semantics-findings.md §19). Call edges of a weak
// function's copy count only where that copy held the definition when its
// input was merged (ctx.out.weak_holders, filled by choose_weak_definitions,
// which runs first).
void find_live_functions(Context &ctx);

// -g and --preserve-relocs remove nothing, but nvlink still tells the
// functions dead-code elimination would remove (ctx.reachable_functions)
// from the others: marks their output symbols OutputSymbol::unreachable.
//   * A kernel kernel pruning leaves out (--preserve-relocs), whose address
//     is not taken, keeps its code as a device function would
//     (OutputSymbol::pruned_entry: no MIN_STACK_SIZE, its own REGCOUNT, no
//     records from its callees, no '^' in -dump-callgraph; measured with
//     `tools/mode-sweep -- --preserve-relocs`: kernels_used_none,
//     kused_nonroot_kernels_two, dlink_host_prune, pruned_kernel_constant2).
//   * The records the only kernel takes from every function are ordered by
//     the reachable ones alone (nv_info.cpp; an uncalled function using a
//     barrier defined before a reached one using %ctaid.z: -g of a -G object
//     and --preserve-relocs alike, kused_single_kernel_externs).
// Runs after the merge.
void mark_unreachable_functions(Context &ctx);

// Whether `sym` of `obj` is not a weak function definition, or is one whose
// copy held the definition when `obj` was merged (a holder, final or replaced).
bool weak_copy_held(const Context &ctx, const InputObject &obj, const ElfSymbol &sym);

// Whether function symbol `index` of `obj` survives (true for non-functions).
bool is_live_function(const Context &ctx, const InputObject &obj, u32 index);

} // namespace dlink
