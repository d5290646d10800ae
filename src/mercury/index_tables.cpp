// ELF extended section numbering on sm_100+ (output.h): where nvlink puts
// .symtab_shndx and .nv.merc.symtab_shndx, and what they hold
// (docs/notes/semantics-findings.md §22).
//
// Measured on sm_100 "plain" links (tools/large-links --sm100-threshold),
// checked on sm_120 and sm_110:
//  - Placement 2, where nvlink's own numbering of the sections of the SASS
//    merge reaches SHN_LORESERVE: the sm_75..sm_90 numbering
//    (section_order.cpp) plus one more section per REL twin of a relocation
//    section (records.cpp wants_rel_twin), created with it. Boundary: 646
//    TUs + 6 pad kernels (65,279) / + 1 variable (65,280). .symtab_shndx is
//    section 4 (the reserved name) with stale entries as on sm_75..sm_90
//    (sections created after the merge: entry 0); .nv.merc.symtab_shndx
//    follows the last capsule (.nv.capmerc.text.*), its name before
//    .nv.merc.debug_frame's, entries as mercury_symbol_entries says.
//  - Placement 1, below that, where the image's highest section index
//    without the tables reaches SHN_LORESERVE (65,281 sections; 65,280 are
//    still written without): nvlink adds two tables after the merge:
//    .symtab_shndx right after the last section of the merge (before the
//    first section created after it), its name a new .shstrtab string
//    before that section's, and .nv.merc.symtab_shndx right before
//    .nv.merc.symtab, its name just before that one's (the two names take
//    the 36 bytes nvlink otherwise leaves after .shstrtab). Both have as
//    many entries as .symtab has symbols. .symtab's entries are 0 (no symbol
//    of .symtab reached 0xff00 in any measured link: refused if one does);
//    .nv.merc.symtab's hold the section index of its symbols whose index is
//    past SHN_LORESERVE (st_shndx SHN_XINDEX; 0xff00 itself is written into
//    st_shndx) and 0 for the others and past its own count.
//  Refused: -r, REL twins of other kinds than a function's code and
//  .debug_frame (in placement 2, or within one section per input of its
//  boundary), shapes other than these.
#include "mercury/output.h"
#include "mercury/state.h"

#include "output/sections.h"
#include "output_model.h"
#include "relocatable.h"

#include <algorithm>
#include <unordered_map>

namespace dlink {

namespace {

// nvlink's own number of each section of the SASS merge (removed ones
// included): the sm_75..sm_90 numbering (section_order.cpp) plus one for
// each REL twin created before it. Sections created after the merge have
// none (0 here: their stale entries are 0).
// `numbers` null: only the highest.
void merge_numbers(const Context &ctx, u32 *highest, std::unordered_map<const OutputSection *, u32> *numbers) {
  const OutputModel &out = ctx.out;
  const u32 skeleton_end = skeleton_section_count(out);
  u32 rel_twins = 0;
  *highest = 0;
  for (u32 i = 0; i < out.sections.size(); i++) {
    const OutputSection *sec = out.sections[i];
    u32 n = sec->late ? 0 : i + 1 + (i >= 3 ? 1 : 0) + (i >= skeleton_end ? 1 : 0) + rel_twins;
    if (numbers)
      (*numbers)[sec] = n;
    *highest = std::max(*highest, n);
    rel_twins += !sec->late && sec->type == SHT_REL;
  }
}

// Whether every REL twin of the merge is of a kind measured (a function's
// code, .debug_frame).
bool measured_rel_twins(const Context &ctx) {
  for (const OutputSection *sec : ctx.out.sections)
    if (!sec->late && sec->type == SHT_REL &&
        !(sec->target && (sec->target->kind == SectionKind::Text || sec->target->name == ".debug_frame")))
      return false;
  return true;
}

// The capsule-Mercury symbol table's extended index table.
constexpr std::string_view kMercuryShndxName = ".nv.merc.symtab_shndx";

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
  layout.extended = layout.stale_entries = layout.family_shndx = false;
  const MercuryState *state = find_mercury_state(ctx);
  auto refuse = [&](std::string_view why) {
    ctx.diag.fatal(fmt::format("the image has {} sections ({}); this shape of link with an extended section index "
                               "table (.symtab_shndx) is not supported by dlink yet for {}",
                               order.size() + 1, why, ctx.arch.name()));
  };
  u32 highest = 0;
  merge_numbers(ctx, &highest, nullptr);
  // Placement 2: the merge itself reaches SHN_LORESERVE.
  if (highest >= SHN_LORESERVE) {
    size_t capsules_end = order.size();
    for (size_t i = 0; i < order.size(); i++)
      if (order[i]->type == SHT_CUDA_CAPMERC_TEXT)
        capsules_end = i;
    if (relocatable_output(ctx) || !state || !state->symtab || capsules_end + 1 >= order.size() ||
        order[capsules_end + 1]->name != ".nv.merc.debug_frame")
      refuse("no .nv.merc.debug_frame after the capsules");
    if (!measured_rel_twins(ctx))
      refuse("REL twins of a kind not measured");
    layout.extended = layout.stale_entries = true;
    merge_numbers(ctx, &highest, &layout.creation_index);
    layout.family_shndx = true;
    layout.family_shndx_section = kMercuryShndxName;
    layout.family_shndx_after = capsules_end;
    layout.family_shndx_name_before = shstrtab_entry_of(out, order[capsules_end + 1], out.shstrtab_closed_at);
    if (layout.family_shndx_name_before >= out.shstrtab_names.size())
      refuse("no .shstrtab entry for .nv.merc.debug_frame");
    return;
  }
  // Near the boundary, with REL twins of kinds not measured, a margin of
  // one per input.
  if (!measured_rel_twins(ctx) && highest + ctx.inputs.size() >= SHN_LORESERVE)
    ctx.diag.fatal(fmt::format("nvlink numbers the sections of this link's merge up to {}, within {} of 0xff00; "
                               "such links are not supported by dlink yet for {} (extended section index table "
                               ".symtab_shndx)",
                               highest, ctx.inputs.size(), ctx.arch.name()));
  // Placement 1: the highest final index without the tables (order.size())
  // reaches SHN_LORESERVE.
  if (order.size() < SHN_LORESERVE)
    return;
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
    refuse("tables after the merge");
  layout.extended = true;
  layout.shndx_after = first_late - 1;
  layout.shndx_name_before = first_name;
  layout.family_shndx = true;
  layout.family_shndx_section = kMercuryShndxName;
  layout.family_shndx_after = merc_symtab - 1;
  layout.family_shndx_name_before = merc_name;
}

ElfSection mercury_section_index_table(Context &ctx, const OutputLayout &layout) {
  const MercuryState *state = find_mercury_state(ctx);
  return section_index_table(ctx, kMercuryShndxName, layout.family_shndx_name, state->symtab->index,
                             SHF_CUDA_MERC, layout.family_xindex);
}

MercurySymbolEntries mercury_symbol_entries(const Context &ctx, const OutputLayout &layout) {
  MercurySymbolEntries r;
  r.syms.resize(1);
  r.syms[0].value = ctx.out.null_symbol_value; // (as in .symtab: probes q2/q3, sm_100)
  r.xindex.assign(1, 0);
  const MercuryState &ms = mercury_state_or_empty(ctx);
  for (OutputSymbol *sym : ms.symbol_order) {
    ElfSymbol e;
    const OutputSection *sec = sym->section;
    // The Mercury twin of a symbol's section, if it has one.
    const OutputSection *merc_sec = nullptr;
    if (sec && (sec->kind == SectionKind::Text || sec->type == SHT_CUDA_UFT) && sec->func)
      merc_sec = ms.symbol(sec->func).section;
    else if (sec && sec->symbol)
      merc_sec = ms.symbol(sec->symbol).section;
    const OutputSection *shown = merc_sec ? merc_sec : sec;
    // (Placement 2: a SASS section at index SHN_COMMON makes its symbols
    // read as common ones in .symtab; nvlink then leaves them in that
    // section here too, with its stale entry: 700 TUs, .text.u00606_f11.)
    if (layout.stale_entries && sec && !sec->removed && sec->index == SHN_COMMON)
      shown = sec;
    u32 index = shown && !shown->removed ? shown->index : 0;
    bool x = false;
    u32 entry = 0;
    if (layout.stale_entries) {
      // Placement 2: a symbol of a SASS section as in .symtab (the
      // sm_75..sm_90 rule: SHN_XINDEX from 0xff00 on, SHN_COMMON's value
      // written directly), a symbol of a capsule-Mercury section as in the
      // table made after the merge (SHN_XINDEX past 0xff00); the other
      // entries hold nvlink's number of the SASS section (a capsule's: its
      // .text twin's). Measured at 647 and 700 TUs.
      x = shown == sec ? index >= SHN_LORESERVE && index != SHN_COMMON : index > SHN_LORESERVE;
      if (!x && sec && !sec->removed && index) {
        auto it = layout.creation_index.find(sec);
        entry = it != layout.creation_index.end() ? it->second : 0;
        r.unmeasured |= entry == 0; // (a section created after the merge)
      }
    } else {
      // Past SHN_LORESERVE: SHN_XINDEX, the index in the table. nvlink
      // writes index 0xff00 itself into st_shndx (entry 0), and 0xfff2
      // (SHN_COMMON) like the others.
      x = index > SHN_LORESERVE;
    }
    e.shndx = static_cast<u16>(x ? u32(SHN_XINDEX) : index);
    r.xindex.push_back(x ? index : entry);
    r.extended |= x;
    if (sym->is_section_symbol) {
      e.name_offset = layout.strtab.offset_of(sec->renamed_from.empty() ? sym->name : sec->renamed_from);
      e.info = ElfSymbol::make_info(STB_LOCAL, STT_SECTION);
    } else {
      e.name_offset = layout.strtab.offset_of(sym->name);
      const MercurySymbol &m = ms.symbol(sym);
      e.info = m.info;
      e.other = m.other;
      e.value = m.value;
      e.size = m.size;
    }
    r.syms.push_back(e);
  }
  // (nvlink sizes the table made after the merge by .symtab's count.)
  if (!layout.stale_entries && r.xindex.size() < layout.symbols.size() + 1)
    r.xindex.resize(layout.symbols.size() + 1, 0);
  return r;
}

} // namespace dlink
