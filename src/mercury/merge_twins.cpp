#include "mercury/merge_twins.h"

#include <string>

namespace dlink {

std::vector<ElfReloc> mercury_twin_relocs(const Context &ctx, const InputObject &obj,
                                          std::string_view rela_name,
                                          const std::set<std::string_view> &skip) {
  if (!ctx.arch.is_mercury())
    return {};
  std::string twin_name = rela_name == ".rela.nv.constant3" ? std::string(".nv.merc.rela.nv.constant.user")
                                                            : ".nv.merc" + std::string(rela_name);
  auto twin = obj.elf.find_section(twin_name);
  if (!twin)
    return {};
  const ElfSection &rela = obj.elf.sections[*twin];
  std::vector<ElfReloc> relocs = read_relocs(rela);
  if (skip.empty() || rela.link >= obj.elf.sections.size())
    return relocs;
  std::vector<ElfSymbol> syms = read_symbols(obj.elf, obj.elf.sections[rela.link]);
  std::erase_if(relocs, [&](const ElfReloc &r) {
    return r.sym && r.sym < syms.size() && skip.count(syms[r.sym].name);
  });
  return relocs;
}

} // namespace dlink
