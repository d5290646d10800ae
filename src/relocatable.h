// -r (--relocatable-link): the output is a relocatable cubin, the inputs
// merged the way an executable link merges them but written in their
// relocatable form (docs/notes/relocatable.md). The stages of an
// executable link call the hooks below; the -r-only stages live in
// relocatable.cpp.
#pragma once

#include "link_context.h"

#include <functional>

namespace dlink {

// Whether this link writes a relocatable cubin.
inline bool relocatable_output(const Context &ctx) { return ctx.opts.relocatable; }

// A unified function's or variable's entry in .nv.uft.entry/.nv.udt.entry
// (`.attribute(.unified(a, b))`): the symbol's index (u32), a kind (u32:
// 1 in ptxas's objects, 7 in nvlink's -r output, kept by a second -r), the symbol's value (u64:
// a variable's offset in .nv.udt) and the two halves of the attribute
// (u64 each). Measured on sm_90 and sm_100 with two unified functions and
// variables in each of two inputs.
constexpr u64 kUnifiedEntrySize = 0x20;
void write_unified_entries(Context &ctx, OutputSection &sec);
// The same into `sec`, a copy of the table `sass` (sm_100+'s Mercury twin),
// each symbol written as `index` gives it.
void write_unified_entries(Context &ctx, OutputSection &sec, const OutputSection &sass,
                           const std::function<u32(const OutputSymbol *)> &index);

// sm_100+: the copies of a weak function with its own bank passed over
// before the kept copy: their bank is gone but their Mercury relocations stay,
// where the bank would have been (ctx.out.relocatable_banks; nvlink's
// "relocation is past end of offset" where that lies past the merged bank).
void place_passed_over_bank_copies(Context &ctx);

// Inputs that are themselves relocatable links' outputs (the command line
// in their tkinfo note has -r): noted (ctx.out.prelinked_input,
// InputObject::prelinked). Runs after read_inputs, for every link.
void check_prelinked_inputs(Context &ctx);
// Whether `in` is a relocatable link's output (its tkinfo note's command
// line has -r).
bool written_by_relocatable_link(const InputObject &in);

// After the merge, before the relocations: undefined symbols as nvlink
// writes them (weak references become global, an undefined CUDA
// variable's value all ones), EXTERNS entries that were defined dropped,
// prototypes ordered, empty sections dropped. The .nv.info records stay as
// merged; nothing is laid out or computed.
void finish_relocatable(Context &ctx);

// Dynamic `extern __shared__` arrays with -r: nvlink defines each in
// .nv_debug.shared, and gives every kernel whose own code refers to one a
// 16-aligned shared section and an undefined `externsharedinstance`
// symbol against which those references are kept; a device function's
// references are resolved with 0. An input that is itself a -r output
// brings its kernels' `externsharedinstance` references: the first becomes
// a WEAK variable of .nv_debug.shared (-g: laid out as an array) whose
// value, where past 16, is every window's slot (dynamic_window). After
// finish_relocatable.
void define_relocatable_dynamic_shared(Context &ctx);
// A dynamic `extern __shared__` array (declared unsized, never defined by
// an input).
bool is_dynamic_array(const OutputSymbol *s);
// A -r output's kernel's reference to its dynamic window: an undefined,
// WEAK, STV_INTERNAL shared variable without size (`externsharedinstance`).
bool is_prelinked_window_reference(const ElfSymbol &s);

} // namespace dlink
