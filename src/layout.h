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

// Value of a symbol as a link-time offset in its memory window (shared
// variables include the reserved prefix).
u64 symbol_offset(const Context &ctx, const OutputSymbol &sym);

} // namespace dlink
