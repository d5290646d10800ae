// Structural validation of input cubins before merging.
#pragma once

#include "link_context.h"

namespace dlink {

// Checks everything the merge relies on: section links and infos, symbol
// section indices, relocation symbols and offsets, EIATTR records,
// call-graph and prototype entries, alignments. Throws InputError with a
// description of the first problem found.
// (When precheck_inputs computed the result, it is that result.)
void validate_cubin(InputObject &obj);

// Validates every input of ctx.inputs at once (ctx.par) and keeps each
// result on its InputObject; nothing is reported here (validate_cubin does,
// in the validate_inputs stage, in link order).
void precheck_inputs(Context &ctx);

// The relocations of relocation section `sec` and the EIATTR records of
// .nv.info/.nv.compat section `sec` of `obj` (a section of obj.elf), as
// the validation parsed them (parsed now if it did not run). Throws
// InputError where the bytes do not parse.
const std::vector<ElfReloc> &section_relocs(InputObject &obj, const ElfSection &sec);
const std::vector<EiRecord> &section_records(InputObject &obj, const ElfSection &sec);

} // namespace dlink
