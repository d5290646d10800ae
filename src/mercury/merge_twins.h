// sm_100+: what the merge reads from an input's capsule-Mercury twin
// sections (called from src/link/).
#pragma once

#include "link_context.h"

#include <set>
#include <string_view>
#include <vector>

namespace dlink {

// The relocations of the Mercury twin of input relocation section
// `rela_name` (".nv.merc" + its name; the user constant bank's twin has the
// bank's Mercury name); empty where the target is older than sm_100 or the
// input has no such twin. Relocations against a symbol named in `skip` are
// left out.
std::vector<ElfReloc> mercury_twin_relocs(const Context &ctx, const InputObject &obj,
                                          std::string_view rela_name,
                                          const std::set<std::string_view> &skip = {});

} // namespace dlink
