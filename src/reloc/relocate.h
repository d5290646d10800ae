// Stage 4: relocation.
#pragma once

#include "link_context.h"

namespace dlink {

// Applies every relocation nvlink resolves at link time (link-time offsets:
// constant-bank and shared-memory offsets, clears, references into
// non-allocated sections) and keeps the others for the driver.
void apply_relocations(Context &ctx);

// The same for one relocation section (the capsule-Mercury stage applies its
// twin relocations through this). With `resolved`, the relocations
// --preserve-relocs lists are returned there instead of being added to the
// target's .nv.resolvedrela section.
void apply_relocation_section(Context &ctx, OutputSection *rel, std::vector<OutputReloc> *resolved = nullptr);

} // namespace dlink
