// Stage 6: serialization.
#pragma once

#include "link_context.h"

namespace dlink {

// Orders sections and symbols, builds the string and symbol tables, notes
// and program headers: the executable cubin, in ctx.output_elf.
void write_output(Context &ctx);

// Creates the sections nvlink adds after merging (.nv.callgraph,
// .nv.prototype, .nv.rel.action), fixes the global symbols and, on sm_100
// and newer, renames bank 3 and creates the kernel parameter banks.
void finish_sections(Context &ctx);
// Its second half, also run by a relocatable link on sm_100+: global symbols
// closed, sm_100+ banks renamed, kernels' parameter banks created.
void finish_late_sections(Context &ctx);

// Writes ctx.output_elf to the -o file (temp file + rename, so a failed
// link never leaves a partial output).
void commit_output(Context &ctx);

} // namespace dlink
