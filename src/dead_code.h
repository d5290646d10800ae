// Stage 2a: dead function elimination (before merging).
#pragma once

#include "link_context.h"

namespace dlink {

// Marks, for every function symbol of every input, whether it is reachable
// from a kernel through the inputs' call graphs. nvlink drops unreachable
// functions before merging: their sections, symbols, relocations, metadata
// and even their names never reach the output. Variables are never removed.
void find_live_functions(Context &ctx);

// Whether function symbol `index` of `obj` survives (true for non-functions).
bool is_live_function(const Context &ctx, const InputObject &obj, u32 index);

} // namespace dlink
