// Stage 5: .nv.info / EIATTR metadata and the other metadata sections.
#pragma once

#include "link_context.h"

namespace dlink {

// Rewrites the merged .nv.info records as nvlink does: drops
// MAX_STACK_SIZE, appends one MIN_STACK_SIZE per kernel (stack including
// callees, from the call graph), removes EXTERNS entries the link resolved
// and drops metadata sections left empty.
void build_nv_info(Context &ctx);

} // namespace dlink
