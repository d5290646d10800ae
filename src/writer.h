// Stage 6: serialization.
#pragma once

#include "link_context.h"

namespace dlink {

// Creates the sections nvlink adds at the end (.nv.callgraph,
// .nv.prototype, .nv.rel.action), orders sections and symbols, builds the
// string and symbol tables, notes and program headers, and serializes the
// executable cubin into ctx.output_bytes.
void write_output(Context &ctx);

// Writes ctx.output_bytes to the -o file (temp file + rename, so a failed
// link never leaves a partial output).
void commit_output(Context &ctx);

} // namespace dlink
