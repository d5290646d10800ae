// Header-index slots for bound texture, sampler and surface references
// (texture_slots.h). Measured rules (docs/notes/semantics-findings.md §7, §17):
//
// * One slot table for the whole program: every reference (used or not)
//   has the same offset in every kernel that gets slots. The table starts at
//   the largest .nv.constant0.<k> size of all kernels (4-aligned); slot
//   bytes are 0.
// * Slot order: the references are listed textures, then samplers, then
//   surfaces, each kind in reverse symbol order; that list is then ordered
//   by a list merge sort whose keys all compare equal and which splits a
//   list by dealing its elements alternately onto the fronts of two lists
//   (texture_slot_permutation).
// * A kernel gets slots when it or a function it calls (directly or through
//   an indirect call of the function's prototype) has a code relocation
//   against a reference; in a program with one kernel, a removed
//   (unreachable) function's relocation counts as well. It gets relocations for the texture and
//   surface slots, and for the sampler slots only when such a relocation
//   names a surface or a sampler. The records of .rel.nv.constant0.<k> are
//   in descending offset order.
// * Code relocations against references are resolved and dropped:
//   BINDLESSOFF14_40 gets the slot offset / 4, CONST_FIELD21_38 the slot
//   offset plus the addend.
// * sm_100+ (§17): slots from a 16-aligned base; the bank of a kernel with
//   slots is created here as ".nv.constant.entry_image_header_indices.<k>"
//   with a RELA section (renamed in finish_sections), sampler records are
//   SAMP_HEADER_INDEX_0, and the kernel's .nv.info gets BINDLESS_*_BANK
//   records. The Mercury copies and the capsule patches are made by the
//   capsule-Mercury stage (mercury.cpp).
#include "texture_slots.h"
#include "arch_format.h"

#include "dlink/reloc_types.h"
#include "output_model.h"

#include <algorithm>
#include <map>
#include <set>

namespace dlink {

namespace {

std::vector<u32> merge_sort_equal_keys(const std::vector<u32> &list) {
  if (list.size() <= 1)
    return list;
  // Deal the elements alternately onto the front of two lists.
  std::vector<u32> a, b;
  for (size_t i = 0; i < list.size(); i++)
    (i % 2 == 0 ? a : b).insert((i % 2 == 0 ? a : b).begin(), list[i]);
  a = merge_sort_equal_keys(a);
  b = merge_sort_equal_keys(b);
  // Merging equal keys takes the whole first list, then the second.
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

u32 slot_reloc_type(u8 sym_type, const ArchFormat &format) {
  using namespace reloc_type;
  switch (sym_type) {
  case STT_CUDA_TEXTURE:
    return R_CUDA_TEX_HEADER_INDEX;
  case STT_CUDA_SAMPLER:
    // (sm_100+ writes the sampler records with the 12-bit-at-0 variant.)
    return format.sampler_slot_reloc;
  default:
    return R_CUDA_SURF_HEADER_INDEX;
  }
}

// A kernel by name: global, or local (a kernel of a texmode_independent
// module is a local symbol).
OutputSymbol *function_named(Context &ctx, std::string_view name) {
  if (OutputSymbol *sym = find_global(ctx, name))
    return sym;
  for (OutputSymbol *sym : ctx.out.locals)
    if (sym->name == name && sym->type == STT_FUNC)
      return sym;
  return nullptr;
}

} // namespace

std::vector<u32> texture_slot_permutation(u32 n) {
  std::vector<u32> list(n);
  for (u32 i = 0; i < n; i++)
    list[i] = i;
  return merge_sort_equal_keys(list);
}

namespace {

// The code relocations against the slots resolved (their addresses
// written), noting which functions reference which kinds.
void resolve_slot_relocs(Context &ctx, const std::map<const OutputSymbol *, u64> &slot,
                         std::set<const OutputSymbol *> &uses_any,
                         std::set<const OutputSymbol *> &uses_sampler_kind) {
  for (OutputSection *rel : ctx.out.sections) {
    if (rel->kind != SectionKind::Reloc || rel->removed || !rel->target ||
        rel->target->kind != SectionKind::Text)
      continue;
    OutputSection *text = rel->target;
    std::vector<OutputReloc> kept;
    for (const OutputReloc &r : rel->relocs) {
      auto it = r.sym ? slot.find(r.sym) : slot.end();
      if (it == slot.end()) {
        kept.push_back(r);
        continue;
      }
      if (text->func) {
        uses_any.insert(text->func);
        if (r.sym->type != STT_CUDA_TEXTURE)
          uses_sampler_kind.insert(text->func);
      }
      const RelocDesc *desc = find_reloc(r.type);
      u32 bytes = desc ? reloc_field_bytes(*desc) : 0;
      if (!desc || r.offset > text->data.size() ||
          bytes > text->data.size() - r.offset)
        ctx.diag.fatal(
            fmt::format("unsupported relocation against '{}' in section '{}'",
                        r.sym->name, text->name));
      RelocInputs in;
      in.address = it->second + static_cast<u64>(r.addend);
      in.implicit_addend = !rel->rela;
      apply_reloc_fields(
          *desc, std::span<u8>(text->data.data() + r.offset, bytes), in);
    }
    rel->relocs = std::move(kept);
  }
}

// sm_100+: a kernel's parameter bank that takes slots, created now; returns
// its RELA section.
OutputSection *create_header_index_bank(Context &ctx, OutputSymbol *kernel, OutputSection *bank,
                                        std::string_view prefix) {
  // The bank is created as "<prefix>.<k>"
  // (".nv.constant.entry_image_header_indices.<k>") with a RELA section
  // (names: .shstrtab bank then rela, .strtab rela then bank); it takes
  // its ".nv.constant0.<k>" name back in finish_sections.
  std::string_view final_name = bank->name;
  std::erase(ctx.out.deferred_sections, bank);
  ctx.out.deferred_by_name.erase(final_name);
  std::string name = std::string(prefix) + "." + std::string(final_name.substr(14));
  bank->name = ctx.arena.save(name);
  bank->symbol->name = bank->name;
  register_section(ctx, bank, false);
  OutputSection *rel = create_section(ctx, ".rela" + name, SHT_RELA, SHF_INFO_LINK, 8, kRelaSize);
  rel->rela = true;
  rel->target = bank;
  add_section_symbol(ctx, bank);
  ctx.out.header_index_banks.push_back({kernel, bank, rel, final_name});
  // The kernel's records say the bindless texture and surface headers
  // are in bank 0 (last, after the parameter-bank records).
  if (OutputSection *info = find_section(ctx, ".nv.info." + std::string(kernel->name)))
    for (u8 attr : {EIATTR_BINDLESS_TEXTURE_BANK, EIATTR_BINDLESS_SURFACE_BANK}) {
      InfoRecord r;
      r.format = EIFMT_BVAL;
      r.attr = attr;
      info->records.push_back(std::move(r));
    }
  return rel;
}

} // namespace

void allocate_texture_slots(Context &ctx) {
  // The references, in symbol order.
  std::vector<OutputSymbol *> refs;
  for (OutputSymbol *sym : ctx.out.globals)
    if (!sym->removed && !sym->defined() && is_bound_texture_type(sym->type))
      refs.push_back(sym);
  if (refs.empty())
    return;
  std::stable_sort(refs.begin(), refs.end(),
                   [](const OutputSymbol *a, const OutputSymbol *b) {
                     return a->create_seq < b->create_seq;
                   });

  // Textures, samplers, surfaces; each kind in reverse symbol order.
  std::vector<OutputSymbol *> list;
  for (u8 type : {STT_CUDA_TEXTURE, STT_CUDA_SAMPLER, STT_CUDA_SURFACE})
    for (auto it = refs.rbegin(); it != refs.rend(); ++it)
      if ((*it)->type == type)
        list.push_back(*it);

  // Kernels and their parameter banks (created late: not created yet, taken
  // in the order of the kernels' code sections).
  const ArchFormat &format = arch_format(ctx.arch);
  std::vector<OutputSection *> banks = ctx.out.sections;
  if (format.late_parameter_banks) {
    // (nvlink's .nv.callgraph and .nv.prototype exist by now: their names
    // come first.)
    create_callgraph_sections(ctx);
    banks = ctx.out.deferred_sections;
    auto code_seq = [&](const OutputSection *bank) {
      const OutputSection *text = find_section(ctx, ".text." + std::string(bank->name.substr(14)));
      return text ? text->create_seq : ~0u;
    };
    std::stable_sort(banks.begin(), banks.end(), [&](const OutputSection *a, const OutputSection *b) {
      return code_seq(a) < code_seq(b);
    });
  }
  std::vector<std::pair<OutputSymbol *, OutputSection *>> kernels;
  u64 base = 0;
  for (OutputSection *sec : banks) {
    if (sec->removed || sec->kind != SectionKind::Constant ||
        !sec->name.starts_with(".nv.constant0."))
      continue;
    OutputSymbol *kernel = function_named(ctx, sec->name.substr(14));
    if (!kernel || !kernel->is_entry())
      continue;
    kernels.emplace_back(kernel, sec);
    base = std::max(base, sec->size);
  }
  // (sm_100+: 16-aligned; probes with banks of 0x384..0x398 bytes.)
  base = align_to(base, format.header_index_slot_align);

  std::map<const OutputSymbol *, u64> slot;
  std::vector<u32> order =
      texture_slot_permutation(static_cast<u32>(list.size()));
  for (u32 pos = 0; pos < order.size(); pos++)
    slot[list[order[pos]]] = base + 4 * pos;
  const u64 end = base + 4 * order.size();
  ctx.out.texture_slot.insert(slot.begin(), slot.end());
  ctx.out.texture_slot_base = base;

  // Which functions reference which kinds; the code relocations resolved.
  std::set<const OutputSymbol *> uses_any, uses_sampler_kind;
  resolve_slot_relocs(ctx, slot, uses_any, uses_sampler_kind);

  CalleeMap callees = callees_with_indirect(ctx);
  // A program with one kernel: uses in removed functions count too.
  const bool only_kernel = kernels.size() == 1;
  for (auto &[kernel, bank] : kernels) {
    bool any = only_kernel && ctx.out.dead_code_uses_references;
    bool samplers = only_kernel && ctx.out.dead_code_uses_sampler_references;
    // -g and --preserve-relocs remove nothing: the uses in unreachable
    // functions count the same way (texref_dead_use, weak_dead_ptx_303
    // linked with -g; texref_dead_use with --preserve-relocs).
    if (only_kernel && (ctx.opts.debug || ctx.opts.preserve_relocs)) {
      any |= !uses_any.empty();
      samplers |= !uses_sampler_kind.empty();
    }
    for (const OutputSymbol *f : reached_from(kernel, callees)) {
      any |= uses_any.count(f) > 0;
      samplers |= uses_sampler_kind.count(f) > 0;
    }
    if (!any)
      continue;
    bank->data.resize(end, 0);
    bank->size = end;
    OutputSection *rel = nullptr;
    if (!format.header_index_bank_prefix.empty()) {
      rel = create_header_index_bank(ctx, kernel, bank, format.header_index_bank_prefix);
    } else {
      rel = reloc_section_for(ctx, bank, false);
      rel->flags = 0; // nvlink writes these without SHF_INFO_LINK
    }
    for (u32 pos = static_cast<u32>(order.size()); pos-- > 0;) {
      OutputSymbol *sym = list[order[pos]];
      if (sym->type == STT_CUDA_SAMPLER && !samplers)
        continue;
      rel->relocs.push_back(
          {base + 4 * pos, sym, slot_reloc_type(sym->type, format), 0, 0});
    }
  }
}

} // namespace dlink
