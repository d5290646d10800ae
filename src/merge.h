// Stage 2: merging inputs into the output model, with symbol resolution.
#pragma once

#include "link_context.h"

namespace dlink {

// The stages before the merge (driver.cpp runs them in this order, then
// find_live_functions, dead_code.h, then merge_inputs):
//
// Checks every input's structure (validate.h); a corrupt one is fatal.
void validate_inputs(Context &ctx);
// Among the definitions of a weak function, nvlink keeps the one with the
// lowest EIATTR_REGCOUNT (the first on ties), whatever the link order:
// fills ctx.out.weak_holders and ctx.out.weak_winner (liveness needs them).
void choose_weak_definitions(Context &ctx);
// Prototype strings go first in .strtab, in order of first appearance
// (ctx.out.prototype_strings), even those of functions dead-code
// elimination removes.
void collect_prototype_strings(Context &ctx);

// Merges every input, in link order, into ctx.out. Reports multiple
// definitions (fatal "merge_elf failed" afterwards, as nvlink does).
void merge_inputs(Context &ctx);

// Whether the relocations of debug section `debug_section` (SASS or Mercury
// name) against a weak function copy that lost stay in the output (-G's
// .debug_info and .debug_loc), where those of .debug_frame and the line
// tables go.
bool keeps_weak_copy_relocs(std::string_view debug_section);

// Kernel pruning (-kernels-used, -variables-used, host references) changes
// how the inputs' .nv.constant3 sections are merged (measured on nvlink
// 13.0.88, docs/notes/semantics-findings.md "Constant bank under kernel
// pruning"). Every input's bank still takes the place it would take
// without pruning as far as symbols and relocations are concerned, but
// the bytes are packed: a later input's bank whose (size, alignment)
// passes constant_bank_dedups() and whose bytes equal an earlier input's
// bank adds no bytes at all; the others are appended where the bytes
// written so far end. The null symbol's st_value becomes the place of the
// last such bank appended after the first.
bool constant_bank_dedups(u64 size, u64 align);
// Rewrites the packed bank (after relocation).
void pack_constant_bank(Context &ctx);

// When the inputs' __constant__ banks together exceed 64 KiB, nvlink lays
// the variables out again one by one (sorted, each aligned to its size up
// to 8), after dropping, under kernel pruning, those nothing kept refers
// to (docs/notes/diagnostics.md "Constant bank laid out again"). Returns
// the bank's size, the one "File uses too much global constant data"
// reports; the bank is only rewritten when the new layout fits.
u64 relayout_constant_bank(Context &ctx);

// Reports undefined references (errors; the link stops at the next
// checkpoint) and drops the placeholder symbols nvlink removes.
void resolve_undefined(Context &ctx);

} // namespace dlink
