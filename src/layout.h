// Stage 3: memory layout.
#pragma once

#include "link_context.h"

namespace dlink {

// Bytes of shared memory the driver reserves at the start of every kernel's
// shared window on this target.
u64 reserved_shared_bytes(const Context &ctx);

// Lays out per-kernel shared memory, turns relocatable section types into
// executable ones (constant banks and initialised globals become PROGBITS,
// shared and uninitialised globals NOBITS) and drops empty sections.
void layout_memory(Context &ctx);

// Where each dynamic `extern __shared__` array starts in the functions
// using it (ctx.out.dynamic_shared_offset), the kernels' shared sections
// grown to it (also -r -g, where only the kernels using an array directly
// grow: relocatable.h define_relocatable_dynamic_shared).
void layout_dynamic_shared(Context &ctx);

// Device functions' own constant banks copied into the kernels' banks (part
// of layout_memory on sm_75-90; on sm_100+ called after the texture header
// slots, whose banks nvlink creates first).
void merge_function_banks(Context &ctx);

// Value of a symbol as a link-time offset in its memory window (shared
// variables include the reserved prefix).
u64 symbol_offset(const Context &ctx, const OutputSymbol &sym);

} // namespace dlink
