// Stage 2: merging inputs into the output model, with symbol resolution.
#pragma once

#include "link_context.h"

namespace dlink {

// Merges every input, in link order, into ctx.out. Reports multiple
// definitions (fatal "merge_elf failed" afterwards, as nvlink does).
void merge_inputs(Context &ctx);

// Reports undefined references (errors; the link stops at the next
// checkpoint) and drops the placeholder symbols nvlink removes.
void resolve_undefined(Context &ctx);

} // namespace dlink
