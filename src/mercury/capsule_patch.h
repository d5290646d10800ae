// Values the link resolves into capsule-Mercury code (sm_100+): written into
// the capsules' encoded instruction records (docs/notes/semantics-findings.md §18).
#pragma once

#include "link_context.h"

namespace dlink {

// Writes each constant-bank and header-index value recorded in
// MercuryState::capsule_values into its capsule; a value dlink cannot place
// is a fatal error.
void patch_capsules(Context &ctx);

} // namespace dlink
