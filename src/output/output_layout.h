// What write_output decides, step by step (writer.cpp): the final section
// order and indices, the symbol tables' order, the string tables.
#pragma once

#include "link_context.h"
#include "output/string_table.h"

#include <unordered_map>
#include <vector>

namespace dlink {

struct OutputLayout {
  // Sections that stay, in section header order (index 1 up).
  std::vector<OutputSection *> order;
  // ELF extended section numbering: the image has .symtab_shndx.
  bool extended = false;
  // nvlink's own number of each section (extended numbering only).
  std::unordered_map<const OutputSection *, u32> creation_index;

  // .symtab: the symbols after the null symbol, and sh_info.
  std::vector<OutputSymbol *> symbols;
  size_t num_locals = 1;

  // .symtab_shndx entries (extended numbering only).
  std::vector<u32> xindex;

  StringTable shstrtab, strtab;
  // Sections whose name is stored again in .shstrtab: that entry's offset.
  std::unordered_map<const OutputSection *, u32> own_name_offset;

  u32 index_of(std::string_view name) const {
    for (const OutputSection *sec : order)
      if (sec->name == name)
        return sec->index;
    return 0;
  }
};

} // namespace dlink
