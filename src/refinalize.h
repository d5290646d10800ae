// sm_100+: the scoreboard re-allocation nvlink applies to kernels it
// re-finalizes from their capsule (docs/notes/refinalization.md).
#pragma once

#include "link_context.h"

#include <span>

namespace dlink {

// Scoreboard re-allocation of one kernel's SASS (16-byte instructions) whose
// first instruction is the stack-pointer load `LDC R1, c[0x0][0x37c]` with a
// write scoreboard. Model (measured on the golden corpus, see the note): the
// scoreboards are allocated again in instruction order, over the control-flow
// graph, with the stack-pointer load dropped: rd before wr, lowest index not
// pending on any path (global loads start at 2, 0x9a3 at 5); producers that
// shared a scoreboard while pending keep sharing; every wait is re-targeted to
// the producers it retired. Safety: the model must first reproduce the
// input's own allocation exactly (with the stack-pointer load); a kernel in
// which a producer had to share for lack of a free index, has a CALL, or is
// not in that shape is left alone. Returns true when `code` was rewritten
// (only bits 110-121 of instructions change).
bool reallocate_scoreboards(std::span<u8> code);

// Applies reallocate_scoreboards to every kernel nvlink re-finalizes (no
// CALL, no stack frame of its own, no EIATTR_MAX_THREADS in its
// .nv.info.<f>); sm_100+ only.
void refinalize_kernels(Context &ctx);

} // namespace dlink
