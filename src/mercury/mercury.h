// Stage 5b: the capsule-Mercury sections of sm_100 and newer.
#pragma once

#include "link_context.h"

namespace dlink {

// sm_100+ cubins carry, besides SASS, a second "Mercury" copy of the program
// (.nv.capmerc.text.<f>, .nv.merc.* metadata, relocations and a symbol table
// of its own) from which the driver can re-finalize the code for a newer
// member of the family. nvlink merges that world after the SASS world, with
// the same rules; this stage does the same. No-op for older targets.
void build_mercury(Context &ctx);

} // namespace dlink
