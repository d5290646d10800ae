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

// Writes an image of several MiB by several threads: the file `fd` (open for
// reading and writing, empty) is sized and its blocks reserved, then each
// piece is copied to its offset through a shared mapping, the pieces in
// parallel. With the blocks reserved, no page of the mapping lacks its block
// (no SIGBUS for want of space). False where the file system cannot reserve
// or map the file: it may then hold a part of the image, and the caller
// writes the whole image from offset 0.
bool write_image_mapped(const Parallelism &par, int fd, const ElfImage &image);

} // namespace dlink
