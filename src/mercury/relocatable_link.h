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


} // namespace dlink
