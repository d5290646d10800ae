#include "mercury/merge_twins.h"

#include <string>

namespace dlink {

std::vector<ElfReloc> mercury_twin_relocs(const Context &ctx, const InputObject &obj,
                                          std::string_view rela_name) {
  if (!ctx.arch.is_mercury())
    return {};
  std::string twin_name = rela_name == ".rela.nv.constant3" ? std::string(".nv.merc.rela.nv.constant.user")
                                                            : ".nv.merc" + std::string(rela_name);
  if (auto twin = obj.elf.find_section(twin_name))
    return read_relocs(obj.elf.sections[*twin]);
  return {};
}

} // namespace dlink
