// sm_100+: what a relocatable link (-r) does besides the generic stages
// (docs/notes/relocatable.md).
#pragma once

#include "link_context.h"

namespace dlink {

// Undefined symbols: an undefined OBJECT reference (the __UFT*/__UDT*
// placeholders) becomes a CUDA variable, in .symtab and .nv.merc.symtab.
void finish_relocatable_mercury(Context &ctx);

} // namespace dlink
