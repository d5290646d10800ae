// sm_100+ relocatable links (relocatable_link.h; measured on nvlink 13.0.88).
#include "relocatable_link.h"

#include <unordered_map>

namespace dlink {

void finish_relocatable_mercury(Context &ctx) {
  if (!ctx.arch.is_mercury())
    return;
  // (Its value stays the first reference's: .nv.reservedSmem.offset0 keeps 0x40.)
  std::unordered_map<OutputSymbol *, u64> first_value;
  for (const InputObject *in : ctx.inputs)
    for (size_t i = 0; i < in->sym_map.size() && i < in->symbols.size(); i++)
      if (in->sym_map[i] && in->symbols[i].shndx == SHN_UNDEF)
        first_value.try_emplace(in->sym_map[i], in->symbols[i].value);
  for (OutputSymbol *sym : ctx.out.globals)
    if (!sym->defined() && !sym->removed && sym->type == STT_OBJECT) {
      sym->type = STT_CUDA_VARIABLE;
      if (auto it = first_value.find(sym); it != first_value.end())
        sym->value = it->second;
    }
}

} // namespace dlink
