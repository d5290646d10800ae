// sm_100+: what a relocatable link (-r) does besides the generic stages
// (docs/notes/relocatable.md).
#pragma once

#include "link_context.h"

namespace dlink {

// Undefined symbols: an undefined OBJECT reference (the __UFT*/__UDT*
// placeholders) becomes a CUDA variable, in .symtab and .nv.merc.symtab.
// (The variables of optimizer constant banks are named after the banks'
// .nv.constant.optimizer working names: link/symbols.cpp.)
void finish_relocatable_mercury(Context &ctx);

// Code relocations against bound texture, sampler and surface references
// are kept; their instructions get the header-index slot base (the largest
// kernel parameter bank, at least 0x380, aligned to 16) in bank 0 and the
// relocations addend 0, whatever the input held (CONST_FIELD22_37 and
// CONST_FIELD21_38). Other relocation types
// against such references, and REL records, are refused (not measured).
void place_relocatable_header_indices(Context &ctx);

// A unified function's stub (.nv.uft.rel.<f>: two instructions, four NOPs,
// the closing self-branch and NOP) is finalized again from its capsule:
// with -g (debug information written) each instruction before the closing
// pair gets the debug schedule (stall 15, no yield, waits on scoreboards 0
// and 1), otherwise ptxas's optimized one (stall 5 and yield, the NOPs stall
// 1), whatever the input was compiled with. Measured at sm_100, sm_110,
// sm_120 and sm_121 with stubs from -G and plain inputs; sm_75-90a keep
// ptxas's stubs. A stub in another shape keeps its code.
void refinalize_unified_stubs(Context &ctx);


} // namespace dlink
