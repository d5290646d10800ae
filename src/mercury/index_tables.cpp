// ELF extended section numbering on sm_100+ (output.h): where nvlink puts
// .symtab_shndx and .nv.merc.symtab_shndx, and what they hold
// (docs/notes/semantics-findings.md §22).
//
// Measured on sm_100 "plain" links (tools/large-links --sm100-threshold):
//  - nvlink's own numbering of the sections of the SASS merge (the
//    sm_75..sm_90 rule, section_order.cpp) counts one more section per REL
//    twin of a relocation section (records.cpp wants_rel_twin: plain TUs
//    have one each, the first one more for .rel.debug_frame; TUs of
//    standalone kernels, or of 20 kernels calling one function, none): when
//    its highest number reaches SHN_LORESERVE (646 TUs + 6 pad kernels + 1
//    variable; 647 TUs) nvlink writes a section 4 .symtab_shndx with stale
//    entries and a .nv.merc.symtab_shndx after the capsules. Not
//    reproduced: refused, with a margin of one per input.
//  - otherwise, when the image's highest section index without the tables
//    reaches SHN_LORESERVE (65,281 sections; 65,280 are still written
//    without), nvlink adds two tables after the merge: .symtab_shndx right
//    after the last section of the merge (before the first section created
//    after it), its name a new .shstrtab string before that section's, and
//    .nv.merc.symtab_shndx right before .nv.merc.symtab, its name just
//    before that one's (the two names take the 36 bytes nvlink otherwise
//    leaves after .shstrtab). Both have as many entries as .symtab has
//    symbols. .symtab's entries are 0 (no symbol of .symtab reached 0xff00
//    in any measured link: refused if one does); .nv.merc.symtab's hold the
//    section index of its symbols whose index is past SHN_LORESERVE
//    (st_shndx SHN_XINDEX; 0xff00 itself is written into st_shndx) and 0
//    for the others and past its own count.
#include "mercury/output.h"
#include "mercury/state.h"

#include "output/sections.h"
#include "output_model.h"
#include "relocatable.h"

namespace dlink {

namespace {

// The highest number nvlink's SASS merge gives a section, by the measured
// model, plus the margin described above.
u64 merge_numbering_bound(const Context &ctx) {
  u64 merged = 0, rel_twins = 0;
  for (const OutputSection *sec : ctx.out.sections)
    if (!sec->late) {
      merged++;
      rel_twins += sec->type == SHT_REL;
    }
  // merged - 1, plus the null section, the reserved .symtab_shndx and the
  // section after the skeleton (section_order.cpp), plus nvlink's extra
  // section per REL twin; one per input is the margin.
  return merged + 2 + rel_twins + ctx.inputs.size();
}

size_t shstrtab_entry_of(const OutputModel &out, const OutputSection *sec, size_t from) {
  for (size_t i = from; i < out.shstrtab_names.size(); i++)
    if (out.shstrtab_names[i].own == sec || (!out.shstrtab_names[i].own && out.shstrtab_names[i].name == sec->name))
      return i;
  return out.shstrtab_names.size();
}

} // namespace

void place_mercury_index_tables(Context &ctx, OutputLayout &layout) {
  if (!ctx.arch.is_mercury())
    return;
  const OutputModel &out = ctx.out;
  const std::vector<OutputSection *> &order = layout.order;
  layout.extended = layout.stale_entries = layout.merc_extended = false;
  if (u64 bound = merge_numbering_bound(ctx); bound >= SHN_LORESERVE)
    ctx.diag.fatal(fmt::format("nvlink may number the sections of this link's merge up to {}; links whose merge "
                               "alone needs an extended section index table (.symtab_shndx) are not supported "
                               "by dlink yet for {}",
                               bound, ctx.arch.name()));
  // The highest final index without the tables: order.size().
  if (order.size() < SHN_LORESERVE)
    return;
  const MercuryState *state = find_mercury_state(ctx);
  size_t first_late = order.size(), merc_symtab = order.size();
  for (size_t i = 0; i < order.size(); i++) {
    if (order[i]->late && first_late == order.size())
      first_late = i;
    if (state && order[i] == state->symtab)
      merc_symtab = i;
  }
  const OutputSection *first_created = nullptr;
  for (const OutputSection *sec : out.sections)
    if (sec->late) {
      first_created = sec;
      break;
    }
  size_t first_name = first_created ? shstrtab_entry_of(out, first_created, out.shstrtab_closed_at)
                                    : out.shstrtab_names.size();
  size_t merc_name = state && state->symtab ? shstrtab_entry_of(out, state->symtab, 0) : out.shstrtab_names.size();
  if (relocatable_output(ctx) || first_late == 0 || first_late == order.size() || !state ||
      merc_symtab == order.size() || merc_symtab < first_late || order[first_late] != first_created ||
      first_name != out.shstrtab_closed_at || merc_name >= out.shstrtab_names.size())
    ctx.diag.fatal(fmt::format("the image has {} sections; this shape of link with an extended section index "
                               "table (.symtab_shndx) is not supported by dlink yet for {}",
                               order.size() + 1, ctx.arch.name()));
  layout.extended = true;
  layout.shndx_after = first_late - 1;
  layout.shndx_name_before = first_name;
  layout.merc_extended = true;
  layout.merc_shndx_after = merc_symtab - 1;
  layout.merc_shndx_name_before = merc_name;
}

ElfSection mercury_section_index_table(Context &ctx, const OutputLayout &layout) {
  const MercuryState *state = find_mercury_state(ctx);
  return section_index_table(ctx, ".nv.merc.symtab_shndx", layout.merc_shndx_name, state->symtab->index,
                             SHF_CUDA_MERC, layout.merc_xindex);
}

MercurySymbolEntries mercury_symbol_entries(const Context &ctx, const OutputLayout &layout) {
  MercurySymbolEntries r;
  r.syms.resize(1);
  r.syms[0].value = ctx.out.null_symbol_value; // (as in .symtab: probes q2/q3, sm_100)
  r.xindex.assign(1, 0);
  for (OutputSymbol *sym : layout.merc_symbols) {
    ElfSymbol e;
    const OutputSection *sec = sym->section;
    // The Mercury twin of a symbol's section, if it has one.
    const OutputSection *merc_sec = nullptr;
    if (sec && sec->kind == SectionKind::Text && sec->func)
      merc_sec = sec->func->merc.section;
    else if (sec && sec->symbol)
      merc_sec = sec->symbol->merc.section;
    const OutputSection *shown = merc_sec ? merc_sec : sec;
    u32 index = shown && !shown->removed ? shown->index : 0;
    // Past SHN_LORESERVE: SHN_XINDEX, the index in the table. nvlink writes
    // index 0xff00 itself into st_shndx (entry 0), and 0xfff2 (SHN_COMMON)
    // like the others (unlike .symtab on sm_75..sm_90).
    const bool x = index > SHN_LORESERVE;
    e.shndx = static_cast<u16>(x ? u32(SHN_XINDEX) : index);
    r.xindex.push_back(x ? index : 0);
    r.extended |= x;
    if (sym->is_section_symbol) {
      e.name_offset = layout.strtab.offset_of(sec->renamed_from.empty() ? sym->name : sec->renamed_from);
      e.info = ElfSymbol::make_info(STB_LOCAL, STT_SECTION);
    } else {
      e.name_offset = layout.strtab.offset_of(sym->name);
      e.info = sym->merc.info;
      e.other = sym->merc.other;
      e.value = sym->merc.value;
      e.size = sym->merc.size;
    }
    r.syms.push_back(e);
  }
  // (nvlink sizes the table by .symtab's count.)
  if (r.xindex.size() < layout.symbols.size() + 1)
    r.xindex.resize(layout.symbols.size() + 1, 0);
  return r;
}

} // namespace dlink
