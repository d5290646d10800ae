// The capsule-Mercury hooks of writing the output (output.h).
#include "mercury/output.h"
#include "mercury/state.h"

#include "output_model.h"
#include "relocatable.h"

#include <algorithm>

namespace dlink {

namespace {

// nvlink leaves this many unaccounted zero bytes after .shstrtab on sm_100+.
constexpr u64 kMercuryShstrtabSlack = 36;

} // namespace

bool mercury_twin_has_relocs(Context &ctx, const OutputSection *sec) {
  if (!sec->rela || sec->resolved_rela || mercury_state_or_empty(ctx).is_copy(sec) || !sec->target)
    return false;
  OutputSection *twin = find_section(ctx, ".nv.merc.rela" + std::string(sec->target->name));
  // (An optimizer bank's twin, and the user bank's, has the bank's
  // Mercury name.)
  if ((!twin || twin->relocs.empty()) &&
      (sec->target->renamed_from.starts_with(".nv.constant.optimizer.") ||
       sec->target->renamed_from == ".nv.constant.user"))
    twin = find_section(ctx, ".nv.merc.rela" + std::string(sec->target->renamed_from));
  return twin && !twin->relocs.empty();
}

void order_mercury_symbols(Context &ctx, OutputLayout &layout) {
  const OutputModel &out = ctx.out;
  if (!find_mercury_state(ctx))
    return;
  MercuryState &ms = mercury_state(ctx);
  ms.symbol_order.clear();
  ms.symbol_locals = 1;
  if (!ms.symtab)
    return;
  for (OutputSymbol *sym : layout.symbols) {
    bool late = std::find(out.late_locals.begin(), out.late_locals.end(), sym) != out.late_locals.end();
    if (late || (!sym->is_section_symbol && !ms.symbol(sym).present))
      continue;
    ms.symbol_order.push_back(sym);
    ms.symbol(sym).index = static_cast<u32>(ms.symbol_order.size());
    if (sym->bind == STB_LOCAL || sym->relocatable_dynamic_instance) // (-r: WEAK, in the local part)
      ms.symbol_locals = ms.symbol_order.size() + 1;
  }
}

namespace {

class MercurySymbolTable : public SyntheticSection {
public:
  using SyntheticSection::SyntheticSection;
  void prepare(Context &ctx, OutputLayout &layout) override {
    MercurySymbolEntries entries = mercury_symbol_entries(ctx, layout);
    if (entries.extended && !layout.family_shndx)
      ctx.diag.fatal("internal error: a capsule-Mercury symbol's section index reaches SHN_LORESERVE "
                     "without .nv.merc.symtab_shndx");
    if (entries.unmeasured && layout.family_shndx)
      ctx.diag.fatal(fmt::format("a .nv.merc.symtab_shndx entry of this link is of a kind not measured; "
                                 "not supported by dlink yet for {}",
                                 ctx.arch.name()));
    syms_ = std::move(entries.syms);
    if (layout.family_shndx)
      layout.family_xindex = std::move(entries.xindex);
  }
  u64 size() const override { return syms_.size() * kSymSize; }
  void write(u8 *out) const override { write_symbols(out, syms_); }

private:
  std::vector<ElfSymbol> syms_;
};

} // namespace

MercuryState &mercury_state(Context &ctx) {
  if (!ctx.out.arch_state)
    ctx.out.arch_state = std::make_unique<MercuryState>();
  return static_cast<MercuryState &>(*ctx.out.arch_state);
}

const MercuryState *find_mercury_state(const Context &ctx) {
  return static_cast<const MercuryState *>(ctx.out.arch_state.get());
}

namespace {
const MercuryState kEmptyState;
} // namespace

const MercuryState &mercury_state_or_empty(const Context &ctx) {
  const MercuryState *state = find_mercury_state(ctx);
  return state ? *state : kEmptyState;
}

bool is_mercury_symbol_table(const Context &ctx, const OutputSection *sec) {
  const MercuryState *state = find_mercury_state(ctx);
  return state && sec == state->symtab;
}

std::unique_ptr<SyntheticSection> mercury_symbol_table(OutputSection *sec) {
  return std::make_unique<MercurySymbolTable>(sec);
}

bool mercury_section_header(const Context &ctx, const OutputLayout &layout, const OutputSection *sec,
                            ElfSection &e) {
  const MercuryState &ms = mercury_state_or_empty(ctx);
  const OutputSection *merc_symtab = ms.symtab;
  u32 merc_symtab_index = merc_symtab ? merc_symtab->index : 0;
  if (merc_symtab && sec == merc_symtab) {
    e.link = layout.index_of(".strtab");
    e.info = static_cast<u32>(ms.symbol_locals);
    return true;
  }
  if (!ms.is_copy(sec))
    return false;
  const OutputSection *func_copy = sec->func ? ms.symbol(sec->func).section : nullptr;
  if (sec->type == SHT_CUDA_CAPMERC_TEXT) {
    e.link = merc_symtab_index;
    e.info = sec->func ? ms.symbol(sec->func).index : 0;
  } else if (sec->type == SHT_CUDA_MERC_INFO) {
    e.link = merc_symtab_index;
    e.info = func_copy ? func_copy->index : 0;
  } else if (sec->kind == SectionKind::Reloc || sec->type == SHT_CUDA_UFT_ENTRY ||
             sec->type == SHT_CUDA_UDT_ENTRY) {
    e.link = merc_symtab_index;
    e.info = sec->target ? sec->target->index : 0;
  } else if (func_copy) {
    // A kernel's header-index bank points at the kernel's capsule.
    e.info = func_copy->index;
  }
  return true;
}

void patch_mercury_sections(Context &ctx, const OutputLayout &layout) {
  const OutputModel &out = ctx.out;
  const MercuryState &ms = mercury_state_or_empty(ctx);
  for (OutputSection *sec : layout.order) {
    const OutputSection *twin = ms.twin(sec);
    if (twin && ms.shares_twin_bytes(sec))
      sec->data = twin->data;
    // -r: the unified entry tables' symbols, by their Mercury index.
    if (twin && (sec->type == SHT_CUDA_UFT_ENTRY || sec->type == SHT_CUDA_UDT_ENTRY))
      write_unified_entries(ctx, *sec, *twin, [&](const OutputSymbol *s) { return ms.symbol(s).index; });
    // A capsule starts with the section index of its SASS .text twin.
    if (sec->type == SHT_CUDA_CAPMERC_TEXT && twin && sec->data.size() >= 4)
      write_le<u32>(sec->data.data(), twin->index);
    // sm_110: the Mercury copy's 0x80 bytes are nvlink's uninitialised
    // memory, a stale copy of the output's first two section headers (null,
    // .shstrtab at 0x40 with the size it had before the sections created
    // after the merge were named; docs/notes/semantics-findings.md §22 for
    // links with extended section numbering). It sits at 0x00 on every sm_110 golden but
    // ocg_banks_order (0x20) and is all zeros for some probes; the placement
    // follows nvlink's allocator (docs/notes/refinalization.md).
    if (ms.is_copy(sec) && sec->type == SHT_CUDA_SHARED_RESERVED && sec->data.size() >= 0x68) {
      const OutputSection *first_late = nullptr;
      for (const OutputSection *s : out.sections)
        if (s->late && (!first_late || s->create_seq < first_late->create_seq))
          first_late = s;
      // (The .symtab_shndx made after the merge is the first section
      // named then: index_tables.cpp.)
      if (layout.extended && layout.shndx_name_before != static_cast<size_t>(-1))
        write_le<u64>(sec->data.data() + 0x60, layout.shndx_name);
      else if (first_late)
        write_le<u64>(sec->data.data() + 0x60, layout.shstrtab.offset_of(first_late->name));
      // The null header's sh_size: the section count then (the first
      // section created after the merge's index) once it passes 0xff00, as
      // section 0 holds it (e_shnum 0; measured at 700 TUs: 68,614).
      if (first_late && first_late->index > SHN_LORESERVE)
        write_le<u64>(sec->data.data() + 0x20, first_late->index);
    }
  }
}

void set_mercury_file_slack(Context &ctx, const OutputLayout &layout, ElfFile &elf) {
  if (!ctx.arch.is_mercury())
    return;
  // (The extended section index tables' names take these bytes: 14 + 22.)
  // (Not when .symtab_shndx is section 4.)
  elf.sections[1].file_slack = layout.family_shndx && !layout.stale_entries ? 0 : kMercuryShstrtabSlack;
  elf.sections[layout.index_of(".strtab")].file_slack = ctx.out.strtab_slack;
}

size_t mercury_shared_offset(const ElfFile &file, size_t i) {
  constexpr std::string_view kMercPrefix = ".nv.merc";
  auto is_bank = [](u32 type) { return type >= SHT_CUDA_CONSTANT && type < SHT_CUDA_MERC_RELA; };
  auto is_data = [&](const ElfSection &s) {
    return s.type == SHT_CUDA_GLOBAL_INIT || s.type == SHT_PROGBITS || is_bank(s.type);
  };
  const ElfSection &m = file.sections[i];
  if (!(m.flags & SHF_CUDA_MERC) || !m.name.starts_with(kMercPrefix))
    return 0;
  std::string_view base = m.name.substr(kMercPrefix.size());
  // An empty Mercury copy sits where its empty SASS twin is (e.g. an empty
  // .nv.merc.debug_frame of a data-only object).
  if (m.size == 0) {
    for (size_t j = 1; j < i; j++)
      if (file.sections[j].name == base && file.sections[j].size == 0)
        return j;
  }
  // A -lineinfo PTX-text twin (.nv.merc.nv_debug_ptx_txt.<hash>) and
  // .nv.merc.debug_str sit where their SASS section is (as ptxas writes
  // them; nvlink keeps that); with -G also .nv.merc.debug_abbrev,
  // .nv.merc.debug_loc, .nv.merc.debug_pubnames and .nv.merc.debug_pubtypes
  // (not .debug_info, even where its bytes are equal), and
  // .nv.merc.nv_debug_info_reg_type, .nv.merc.debug_line,
  // .nv.merc.nv_debug_line_sass and .nv.merc.nv_debug_info_reg_sass where
  // their bytes equal the SASS section's (the line tables: an input without
  // device code, -lineinfo or -G; ptxas and nvlink alike,
  // testdata/src/empty_lineinfo; reg_sass: -r -g of a -G module whose only
  // function is a weak one, differential-ptx --mode rg, seed 16 at sm_100).
  bool reg_type = m.name == ".nv.merc.nv_debug_info_reg_type" || m.name == ".nv.merc.debug_line" ||
                  m.name == ".nv.merc.nv_debug_line_sass" || m.name == ".nv.merc.nv_debug_info_reg_sass";
  if (m.name.starts_with(".nv.merc.nv_debug_ptx_txt.") || m.name == ".nv.merc.debug_str" ||
      m.name == ".nv.merc.debug_abbrev" || m.name == ".nv.merc.debug_loc" ||
      m.name == ".nv.merc.debug_pubnames" || m.name == ".nv.merc.debug_pubtypes" || reg_type) {
    for (size_t j = 1; j < i; j++) {
      const ElfSection &t = file.sections[j];
      if (t.name != base || t.size != m.size)
        continue;
      if (reg_type && (t.data.size() != m.data.size() ||
                       (!t.data.empty() && std::memcmp(t.data.data(), m.data.data(), t.data.size()) != 0)))
        continue;
      return j;
    }
  }
  // Data copies (`.nv.merc.nv.global.init`, `.nv.merc.nv.constant.user`,
  // ...: type CUDA_GLOBAL_INIT or a constant bank) share the file offset of
  // their SASS twin: an earlier section named without the ".nv.merc"
  // prefix or, for renamed banks (`.nv.constant.user` became
  // `.nv.constant3`, `.nv.constant.pic` `.nv.constant4`), the one
  // constant-bank section with the same size and bytes (never for the
  // header-index banks, which have bytes of their own).
  if (!(m.flags & SHF_ALLOC) || !(m.type == SHT_CUDA_GLOBAL_INIT || is_bank(m.type)))
    return 0;
  bool header_index_bank = base.starts_with(".nv.constant.entry_image_header_indices.");
  size_t by_content = 0, matches = 0;
  for (size_t j = 1; j < i; j++) {
    const ElfSection &t = file.sections[j];
    if ((t.flags & SHF_CUDA_MERC) || !is_data(t) || t.size != m.size)
      continue;
    if (t.name == base)
      return j;
    bool same_bytes = t.data.size() == m.data.size() &&
                      (t.data.empty() || std::memcmp(t.data.data(), m.data.data(), t.data.size()) == 0);
    if (is_bank(m.type) && (is_bank(t.type) || t.type == SHT_PROGBITS) && same_bytes && !header_index_bank) {
      by_content = j;
      matches++;
    }
  }
  return matches == 1 ? by_content : 0;
}

namespace {

class MercuryOutputHooks final : public OutputHooks {
public:
  bool keeps_empty_reloc_section(Context &ctx, const OutputSection *sec) const override {
    return mercury_twin_has_relocs(ctx, sec);
  }
  void order_symbols(Context &ctx, OutputLayout &layout) const override { order_mercury_symbols(ctx, layout); }
  // (A section with a family slot is a Mercury copy: MercuryState::add_copy.)
  bool owns_section(const Context &, const OutputSection *sec) const override { return sec->family_slot != 0; }
  bool names_own_symbols(const Context &, const OutputSection *sec) const override {
    return sec->family_slot != 0;
  }
  u32 own_symbol_index(const Context &ctx, const OutputSymbol *sym) const override {
    return find_mercury_state(ctx)->symbol(sym).index; // (copies exist: so does the state)
  }
  std::unique_ptr<SyntheticSection> table_section(const Context &ctx, OutputSection *sec) const override {
    return is_mercury_symbol_table(ctx, sec) ? mercury_symbol_table(sec) : nullptr;
  }
  void section_header(const Context &ctx, const OutputLayout &layout, const OutputSection *sec,
                      ElfSection &e) const override {
    mercury_section_header(ctx, layout, sec, e);
  }
  void patch_sections(Context &ctx, const OutputLayout &layout) const override {
    patch_mercury_sections(ctx, layout);
  }
  void set_file_slack(Context &ctx, const OutputLayout &layout, ElfFile &elf) const override {
    set_mercury_file_slack(ctx, layout, elf);
  }
  SharedOffsetRule shared_offset_rule() const override { return mercury_shared_offset; }
  void place_index_tables(Context &ctx, OutputLayout &layout) const override {
    place_mercury_index_tables(ctx, layout);
  }
  ElfSection index_table(Context &ctx, const OutputLayout &layout) const override {
    return mercury_section_index_table(ctx, layout);
  }
};

} // namespace

const OutputHooks &mercury_output_hooks() {
  static const MercuryOutputHooks hooks;
  return hooks;
}

} // namespace dlink
