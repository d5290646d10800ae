// Stage 5: .nv.info / EIATTR metadata and the other metadata sections.
#pragma once

#include "link_context.h"

namespace dlink {

// Rewrites the merged .nv.info records as nvlink does: drops
// MAX_STACK_SIZE, appends one MIN_STACK_SIZE per kernel (stack including
// callees, from the call graph), removes EXTERNS entries the link resolved
// and drops metadata sections left empty.
void build_nv_info(Context &ctx);

// -v: nvlink's resource report ("N bytes gmem", then per kernel "Function
// properties for 'k':" and "used N registers, used N barriers, N stack,
// N bytes smem, N bytes cmem[0], N bytes lmem"), as info messages.
void report_resources(Context &ctx);

} // namespace dlink
