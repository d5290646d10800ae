// Structural validation of input cubins before merging.
#pragma once

#include "link_context.h"

namespace dlink {

// Checks everything the merge relies on: section links and infos, symbol
// section indices, relocation symbols and offsets, EIATTR records,
// call-graph and prototype entries, alignments. Throws InputError with a
// description of the first problem found.
void validate_cubin(const InputObject &obj);

} // namespace dlink
