// Which sections and symbols the image holds, in what order (sections.h).
//
// Section header order is by group, and within a group by creation order:
//   .shstrtab .strtab .symtab | debug sections | .note.nv.tkinfo
//   .note.nv.cuinfo | .nv.info .nv.compat | .nv.info.<f>... | .nv.callgraph
//   .nv.prototype .nv.rel.action | relocation sections | constant banks |
//   .text.<f>... | .nv.global.init | .nv.shared.<k> and .nv.global (NOBITS)
// The symbol table lists the null symbol, the section symbols of surviving
// sections in creation order, then the global symbols in creation order.
// .strtab holds, in this order: the prototype strings, every section name
// ever created, every global symbol name ever created; .shstrtab every
// section name ever created. Neither is compacted.
#include "output/sections.h"
#include "arch_format.h"

#include "layout.h"
#include "debug_link.h"
#include "output/target_hooks.h"
#include "output_model.h"

#include <algorithm>
#include <array>

namespace dlink {

namespace {

int group_of(const OutputSection *sec) {
  // (-r: a unified function's stub with the code, the unified functions'
  // and variables' entry tables with the functions' .nv.info sections.)
  if (sec->type == SHT_CUDA_UFT)
    return 8;
  if (sec->type == SHT_CUDA_UFT_ENTRY || sec->type == SHT_CUDA_UDT_ENTRY)
    return 4;
  // (The unified variables' .nv.udt with .nv.global.init, by creation:
  // before or after it as the inputs bring them, before .nv.global.)
  if (sec->type == SHT_CUDA_UDT)
    return 9;
  switch (sec->kind) {
  case SectionKind::StringTable:
  case SectionKind::SymbolTable:
    return 0;
  case SectionKind::Debug:
    return 1;
  case SectionKind::Note:
    return 2;
  case SectionKind::ModuleInfo:
  case SectionKind::Compat:
    return 3;
  case SectionKind::FunctionInfo:
    return 4;
  case SectionKind::Callgraph:
  case SectionKind::Prototype:
  case SectionKind::RelAction:
    return 5;
  case SectionKind::Reloc:
    return 6;
  case SectionKind::Constant:
    return 7;
  case SectionKind::Text:
    return 8;
  case SectionKind::GlobalInit:
    return 9;
  case SectionKind::Shared:
  case SectionKind::Global:
  case SectionKind::DebugShared:
  case SectionKind::SharedReserved:
    return 10;
  default:
    return 11;
  }
}

} // namespace

u32 skeleton_section_count(const OutputModel &out) {
  u32 count = 0;
  for (u32 i = 0; i < out.sections.size(); i++) {
    std::string_view n = out.sections[i]->name;
    if (n == ".shstrtab" || n == ".strtab" || n == ".symtab" || n == ".note.nv.tkinfo" ||
        n == ".note.nv.cuinfo" || n == ".nv.info" || n == ".nv.compat")
      count = i + 1;
    else
      break;
  }
  return count;
}

void drop_empty_sections(Context &ctx) {
  OutputModel &out = ctx.out;
  for (OutputSection *sec : out.sections) {
    // (sm_100+: an empty SASS relocation section stays when its twin does
    // not.)
    if (sec->kind == SectionKind::Reloc && sec->relocs.empty() &&
        !output_hooks(ctx).keeps_empty_reloc_section(ctx, sec))
      sec->removed = true;
    if (sec->kind == SectionKind::Compat && !out.have_compat && !ctx.inputs.empty())
      sec->removed = true;
    // An empty .nv.info is dropped (no live code); with no device code at
    // all, .nv.compat holds only the accelerator-target record.
    if (sec->kind == SectionKind::ModuleInfo && sec->records.empty())
      sec->removed = true;
  }
  if (ctx.inputs.empty() && !out.have_compat) {
    EiRecord target;
    target.format = EIFMT_BVAL;
    target.attr = 0x09; // EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET (value set when written)
    out.compat = {target};
    if (arch_format(ctx.arch).empty_compat_has_features_record) { // (value set when written)
      EiRecord features;
      features.format = EIFMT_SVAL;
      features.attr = 0x0b;
      features.value = 8;
      out.compat.push_back(features);
    }
  }
}

void order_sections(Context &ctx, OutputLayout &layout) {
  OutputModel &out = ctx.out;
  std::vector<OutputSection *> &order = layout.order;
  order.clear();
  // By group, each in creation order (a stable counting sort); sections
  // created after the merge (sm_100+: parameter banks and the
  // capsule-Mercury group) follow, in creation order.
  // (Each section's group found in parallel: the sections are read once.)
  constexpr int kGroups = 12, kLate = kGroups;
  constexpr u8 kRemoved = 0xff;
  std::vector<u8> keys(out.sections.size());
  ctx.par.for_each_index(keys.size(), [&](size_t i) {
    const OutputSection *sec = out.sections[i];
    keys[i] = sec->removed ? kRemoved : static_cast<u8>(sec->late ? kLate : group_of(sec));
  }, 1024);
  std::array<size_t, kGroups + 2> start{};
  for (u8 k : keys)
    if (k != kRemoved)
      start[k + 1u]++;
  for (size_t g = 1; g < start.size(); g++)
    start[g] += start[g - 1];
  order.resize(start.back());
  for (size_t i = 0; i < keys.size(); i++)
    if (keys[i] != kRemoved)
      order[start[keys[i]]++] = out.sections[i];
  // ELF extended section numbering (docs/notes/semantics-findings.md §22).
  // nvlink numbers every section it creates, removed ones included,
  // counting the null section, a .symtab_shndx it creates after .symtab and,
  // except with -r, one more section after the skeleton: when the highest of
  // these numbers reaches SHN_LORESERVE (0xff00) the image keeps
  // .symtab_shndx (right after .symtab), whatever its final size. (-r:
  // measured on sm_90 links of 646 plain TUs and a TU of five kernels,
  // 65,278 sections created: no table; with a __device__ variable more,
  // 65,279: the table. The stale entries of 700-TU -r links agree.)
  // Separately, e_shnum is 0 with the count in section 0's sh_size when the
  // highest final index reaches 0xff00 (headers.cpp). sm_100+ places its
  // tables its own way (mercury/output.h).
  size_t symtab_pos = order.size();
  for (size_t i = 0; i < order.size(); i++)
    if (order[i]->kind == SectionKind::SymbolTable) {
      symtab_pos = i;
      break;
    }
  layout.creation_index.clear();
  const u32 after_skeleton = ctx.opts.relocatable ? 0 : 1;
  layout.extended = layout.stale_entries = out.sections.size() + 1 + after_skeleton >= SHN_LORESERVE;
  layout.common_number_kept = layout.stale_entries && ctx.opts.relocatable;
  layout.shndx_after = symtab_pos;
  output_hooks(ctx).place_index_tables(ctx, layout);
  ctx.par.for_each_index(order.size(), [&](size_t i) {
    order[i]->index = static_cast<u32>(i + 1 + (layout.extended && i > layout.shndx_after ? 1 : 0) +
                                       (layout.family_shndx && i > layout.family_shndx_after ? 1 : 0));
  }, 1024);
  // nvlink's own number of each section: its position among every section it
  // created (removed ones included), counting the null section, the
  // .symtab_shndx it always creates after .symtab, and, except with -r, one
  // more section it creates after the skeleton (.nv.info, .nv.compat). Stale
  // entries of .symtab_shndx hold these. (-r: measured on sm_90 links of 700
  // plain and 700 and 1,000 -lineinfo TUs, and of a device-function TU with
  // 700 -lineinfo TUs after it: its .text.zz is 9, not 10.)
  // (sm_100+ numbers its own: mercury/index_tables.cpp.)
  if (layout.stale_entries && layout.creation_index.empty()) {
    const u32 skeleton_end = skeleton_section_count(out);
    layout.creation_index.reserve(out.sections.size());
    for (u32 i = 0; i < out.sections.size(); i++)
      layout.creation_index[out.sections[i]] =
          i + 1 + (i >= 3 ? 1 : 0) + (i >= skeleton_end ? after_skeleton : 0);
  }
}

void order_symbols(Context &ctx, OutputLayout &layout) {
  OutputModel &out = ctx.out;
  // Symbols: nvlink's local array, its global array, then locals created
  // after the globals were fixed.
  u64 reserved = reserved_shared_bytes(ctx);
  auto emitted_local = [&](const OutputSymbol *sym) {
    if (sym->removed || (sym->section && sym->section->removed))
      return false;
    // Section symbols exist only for sections of the kinds that have them,
    // and not for empty memory sections.
    // (-g, -r: .nv_debug.shared has one too, where it is not empty.)
    if (sym->is_section_symbol && !kind_has_section_symbol(sym->section->kind) &&
        !((debug_shared_symbols(ctx) || ctx.opts.relocatable) && sym->section->kind == SectionKind::DebugShared))
      return false;
    // A debug section no input's section symbol named (an empty
    // .debug_frame of a link without device code; .nv_debug_info_reg_sass
    // and _type of a -G link without device code) has none; one that an
    // input named keeps it even when it ends up empty (sm_100+ FDE
    // filtering): testdata/src/empty_debug_section_symbols.
    if (sym->is_section_symbol && sym->section->kind == SectionKind::Debug &&
        !sym->section->input_section_symbol)
      return false;
    SectionKind k = sym->is_section_symbol ? sym->section->kind : SectionKind::Other;
    // (sm_100+: a kernel's shared section, or -g's .nv_debug.shared, holding
    // only the reserved prefix counts as empty.)
    // (-r lays nothing out: no prefix.)
    u64 empty = arch_format(ctx.arch).reserved_window_only_is_empty && !ctx.opts.relocatable &&
                            (k == SectionKind::Shared || k == SectionKind::DebugShared)
                    ? reserved
                    : 0;
    return !(sym->is_section_symbol && sym->section->size <= empty &&
             (k == SectionKind::Shared || k == SectionKind::Global ||
              k == SectionKind::DebugShared));
  };
  // (Which symbols are written, decided in parallel: the symbols are read
  // once.)
  const size_t n_locals = out.locals.size(), n_globals = out.globals.size();
  std::vector<u8> emitted(n_locals + n_globals + out.late_locals.size());
  ctx.par.for_each_index(emitted.size(), [&](size_t i) {
    if (i < n_locals)
      emitted[i] = emitted_local(out.locals[i]);
    else if (i < n_locals + n_globals)
      emitted[i] = !out.globals[i - n_locals]->removed;
    else
      emitted[i] = emitted_local(out.late_locals[i - n_locals - n_globals]);
  }, 1024);
  std::vector<OutputSymbol *> &symbols = layout.symbols;
  symbols.clear();
  symbols.reserve(emitted.size());
  for (size_t i = 0; i < n_locals; i++)
    if (emitted[i])
      symbols.push_back(out.locals[i]);
  layout.num_locals = symbols.size() + 1;
  for (size_t i = 0; i < n_globals; i++)
    if (emitted[n_locals + i])
      symbols.push_back(out.globals[i]);
  bool have_late = false;
  for (size_t i = 0; i < out.late_locals.size(); i++)
    if (emitted[n_locals + n_globals + i]) {
      symbols.push_back(out.late_locals[i]);
      have_late = true;
    }
  // sh_info: 1 + index of the last local symbol.
  if (have_late)
    layout.num_locals = symbols.size() + 1;

  output_hooks(ctx).order_symbols(ctx, layout);
  ctx.par.for_each_index(symbols.size(), [&](size_t i) { symbols[i]->index = static_cast<u32>(i + 1); }, 1024);
}

// How many names ahead the string tables' lookup slots are fetched.
constexpr size_t kPrefetchAhead = 16;

void build_string_tables(Context &ctx, OutputLayout &layout) {
  const OutputModel &out = ctx.out;
  // (Both tables' names are hashed in parallel and added in order on this
  // thread.)
  std::vector<size_t> section_hashes(out.shstrtab_names.size());
  ctx.par.for_each_index(section_hashes.size(), [&](size_t i) {
    section_hashes[i] = StringTable::hash(out.shstrtab_names[i].name);
  }, 1024);
  layout.shstrtab = StringTable(out.shstrtab_names.size());
  for (size_t i = 0; i < out.shstrtab_names.size(); i++) {
    const auto &entry = out.shstrtab_names[i];
    if (layout.extended && i == layout.shndx_name_before)
      layout.shndx_name = layout.shstrtab.add(".symtab_shndx", 0, true);
    if (layout.family_shndx && i == layout.family_shndx_name_before)
      layout.family_shndx_name = layout.shstrtab.add(layout.family_shndx_section, 0, true);
    if (i + kPrefetchAhead < section_hashes.size())
      layout.shstrtab.prefetch(section_hashes[i + kPrefetchAhead]);
    u32 off = layout.shstrtab.add_hashed(entry.name, section_hashes[i], entry.pad, entry.own != nullptr);
    if (entry.own)
      layout.own_name_offset[entry.own] = off;
  }
  // (.symtab_shndx takes the string nvlink reserves for it unless its
  // table gets a name of its own.)
  if (layout.shndx_name_before == static_cast<size_t>(-1))
    layout.shndx_name = layout.shstrtab.offset_of(".symtab_shndx");
  // .strtab, in this order: prototype strings (an empty one is its own lone
  // NUL), the other names, the global symbols' names, the late names.
  size_t n_proto = out.prototype_strings.size(), n_names = out.strtab_names.size(),
         n_globals = out.globals.size(), n_late = out.strtab_late_names.size();
  size_t total = n_proto + n_names + n_globals + n_late;
  std::vector<std::string_view> names(total);
  for (size_t i = 0; i < n_proto; i++)
    names[i] = out.prototype_strings[i];
  for (size_t i = 0; i < n_names; i++)
    names[n_proto + i] = out.strtab_names[i];
  for (size_t i = 0; i < n_globals; i++)
    names[n_proto + n_names + i] = out.globals[i]->name;
  for (size_t i = 0; i < n_late; i++)
    names[n_proto + n_names + n_globals + i] = out.strtab_late_names[i];
  std::vector<size_t> hashes(total);
  ctx.par.for_each_index(total, [&](size_t i) { hashes[i] = StringTable::hash(names[i]); }, 1024);
  size_t bytes = 0;
  for (std::string_view s : names)
    bytes += s.size() + 1;
  layout.strtab = StringTable(total);
  StringTable &strtab = layout.strtab;
  strtab.reserve_bytes(bytes);
  for (size_t i = 0; i < total; i++) {
    if (i + kPrefetchAhead < total)
      strtab.prefetch(hashes[i + kPrefetchAhead]);
    if (i < n_proto && names[i].empty())
      strtab.add_empty();
    else
      strtab.add_hashed(names[i], hashes[i]);
  }
}

} // namespace dlink
