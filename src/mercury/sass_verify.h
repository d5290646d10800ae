// sm_100+: a scoreboard and dependency checker for kernels dlink re-finalizes
// (docs/notes/refinalization.md, "The verifier").
//
// It validates a rewritten kernel against ptxas's own code of the same
// kernel (translation validation): ptxas's code is the reference for which
// dependencies exist, since dlink has no full operand decoder. Checked over
// both control-flow graphs:
//
// * the rewrite changes only what dlink may change: per instruction kept, the
//   same bits apart from the scoreboard controls (bits 110-121) and branch /
//   BSSY offsets, which must reach the same instruction; so every stall count
//   and yield bit is ptxas's. Removed instructions carry no controls and are
//   never-executed padding (`@!PT`) or MEMBARs;
// * the control flow is inside the decoded forms (BRA, BSSY, BSYNC, 0x946,
//   0x948, EXIT);
// * every scoreboard the rewrite sets was set by ptxas on the same
//   instruction (read or write); ptxas's may be dropped only on the
//   stack-pointer load `LDC R1, c[0x0][0x37c]`, when nothing else names R1 as
//   a register operand and nothing calls;
// * coverage: wherever ptxas's code waits for a producer (read or write
//   scoreboard) that may be pending, the rewritten code has it retired on
//   every path on entry to the same instruction, or waits on its index there.
//   A wait may come later only for an LDCU/LDC/S2R result in straight-line
//   code, when no instruction in between names one of its registers in any
//   operand byte (bits 16-63 and 64-103);
// * no scoreboard is reused while pending, except by a producer ptxas also
//   put on a pending scoreboard (ptxas's own pressure shares).
#pragma once

#include "dlink/common.h"

#include <span>
#include <string>
#include <vector>

namespace dlink::sass {

struct VerifyResult {
  bool ok = false;
  std::string reason; // why not, with the instruction offset (rewritten code)
};

// original: ptxas's code. code: the rewritten kernel. removed: per original
// instruction, whether the rewrite took it out (empty: none removed).
VerifyResult verify_refinalized(std::span<const u8> original, std::span<const u8> code,
                                const std::vector<bool> &removed = {});

} // namespace dlink::sass
