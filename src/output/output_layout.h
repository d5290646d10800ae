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
  // ELF extended section numbering (docs/notes/semantics-findings.md §22):
  // the image has .symtab_shndx, after the section at position
  // `shndx_after` of `order`.
  bool extended = false;
  size_t shndx_after = 0;
  // Its entries below SHN_LORESERVE hold nvlink's own number of the
  // symbol's section (creation_index) or, for the table nvlink makes after
  // the merge (sm_100+), 0.
  bool stale_entries = false;
  // Where its name is stored: the string nvlink always reserves (npos), or
  // a string of its own before entry `shndx_name_before` of
  // out.shstrtab_names (shndx_name: the offset, set by build_string_tables).
  size_t shndx_name_before = static_cast<size_t>(-1);
  u32 shndx_name = 0;
  // nvlink's own number of each section (stale entries only).
  std::unordered_map<const OutputSection *, u32> creation_index;
  // The target family's own symbol table's extended index table
  // (`family_shndx_section`; sm_100+: .nv.merc.symtab_shndx, placed by the
  // output hooks), after position `family_shndx_after`, its name before
  // entry `family_shndx_name_before`, its entries.
  bool family_shndx = false;
  std::string_view family_shndx_section;
  size_t family_shndx_after = 0;
  size_t family_shndx_name_before = static_cast<size_t>(-1);
  u32 family_shndx_name = 0;
  std::vector<u32> family_xindex;

  // .symtab: the symbols after the null symbol, and sh_info.
  std::vector<OutputSymbol *> symbols;
  size_t num_locals = 1;

  // .symtab_shndx entries (extended numbering only).
  std::vector<u32> xindex;

  StringTable shstrtab, strtab;
  // Sections whose name is stored again in .shstrtab: that entry's offset.
  std::unordered_map<const OutputSection *, u32> own_name_offset;

  // -r: nvlink does not renumber a section whose own number is SHN_COMMON
  // (0xfff2): its symbols' st_shndx and other sections' sh_info keep 0xfff2
  // (measured on sm_90 -r links of 700 and 1,000 -lineinfo TUs:
  // `.text.u00646_f13`, index 87,700; without -r, a 700-TU link renumbers
  // its `.text.u00642_f25` like any other section).
  bool common_number_kept = false;
  bool keeps_common_number(const OutputSection *sec) const {
    if (!common_number_kept)
      return false;
    auto it = creation_index.find(sec);
    return it != creation_index.end() && it->second == SHN_COMMON;
  }
  // The index other sections' headers give `sec` (sh_info).
  u32 referenced_index(const OutputSection *sec) const {
    return keeps_common_number(sec) ? u32{SHN_COMMON} : sec->index;
  }

  u32 index_of(std::string_view name) const {
    for (const OutputSection *sec : order)
      if (sec->name == name)
        return sec->index;
    return 0;
  }
};

} // namespace dlink
