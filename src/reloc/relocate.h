// Stage 4: relocation.
#pragma once

#include "link_context.h"

namespace dlink {

// Applies every relocation nvlink resolves at link time (link-time offsets:
// constant-bank and shared-memory offsets, clears, references into
// non-allocated sections) and keeps the others for the driver.
void apply_relocations(Context &ctx);

// The same for one relocation section (the capsule-Mercury stage applies its
// twin relocations through this).
void apply_relocation_section(Context &ctx, OutputSection *rel);

} // namespace dlink
