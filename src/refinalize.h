// sm_100+: the scoreboard re-allocation nvlink applies to kernels it
// re-finalizes from their capsule (docs/notes/refinalization.md).
#pragma once

#include "link_context.h"

#include <span>

namespace dlink {

// Scoreboard re-allocation of one kernel's SASS (16-byte instructions) whose
// first instruction is the stack-pointer load `LDC R1, c[0x0][0x37c]` with a
// write scoreboard. Model (measured on the golden corpus and probes, see the
// note): the scoreboards are allocated again in instruction order, over the
// control-flow graph, with the stack-pointer load dropped: rd before wr, the
// lowest index not used by an interfering producer (pending together at some
// point, or meeting at a loop head over a backward edge; global loads start
// at 2, 0x9a3 at 5); producers that shared a scoreboard while pending keep
// sharing; every wait is re-targeted to the producers it retired. Safety: the
// model must reproduce the input's own allocation exactly (with the
// stack-pointer load) and give the same result when backward branches' waits
// are not applied across the edge. Producers that share a scoreboard for lack
// of a free one while the stack-pointer load is pending get the index it frees
// where the note's rules say how (its sharers as a group; else one LDCU, with
// its wait moved to its first reader); kernels where a producer shares the
// stack-pointer load's index otherwise, or shares one for lack of a free index
// in a way not modelled, has a CALL, or is not in that shape are left alone. Returns true
// when `code` was rewritten (only bits 110-121 of instructions change).
bool reallocate_scoreboards(std::span<u8> code);

// Applies reallocate_scoreboards to every kernel (a .text.<f> with a
// .nv.info.<f>) without a stack frame of its own; launch bounds do not
// matter. sm_100+ only.
void refinalize_kernels(Context &ctx);

} // namespace dlink
