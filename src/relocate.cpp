// Stage 4: relocation (relocate.h).
//
// Consumes the relocation lists of the output model after layout; patches
// section bytes through the generic descriptor engine (reloc_types.h) and
// leaves in each list only the relocations the driver must still apply.
// nvlink keeps every relocation that needs a load address (code or global
// memory: all sh_addr are 0 in a cubin) and resolves those whose value is
// already known at link time.
#include "relocate.h"

#include "dlink/reloc_types.h"
#include "layout.h"

namespace dlink {

namespace {

bool is_allocated(const OutputSection *sec) { return sec && (sec->flags & SHF_ALLOC); }

// Whether nvlink applies `r` itself.
bool resolved_at_link_time(const OutputReloc &r, const RelocDesc &desc) {
  if (desc.handler == RelocHandler::Linker)
    return true;
  if (desc.handler == RelocHandler::Either && r.sym && r.sym->section &&
      !is_allocated(r.sym->section))
    return true;
  if (desc.handler == RelocHandler::Either && r.sym && r.sym->section &&
      (r.sym->section->kind == SectionKind::Shared ||
       r.sym->section->kind == SectionKind::Constant))
    return true;
  return false;
}

u32 constant_bank(const OutputSection *sec) {
  if (!sec || sec->kind != SectionKind::Constant)
    return 0;
  return sec->type >= SHT_CUDA_CONSTANT && sec->type <= SHT_CUDA_CONSTANT_LAST
             ? sec->type - SHT_CUDA_CONSTANT
             : static_cast<u32>(std::strtoul(std::string(sec->name.substr(12)).c_str(), nullptr, 10));
}

} // namespace

void apply_relocations(Context &ctx) {
  for (OutputSection *sec : ctx.out.sections) {
    if (sec->kind != SectionKind::Reloc || sec->removed || !sec->target)
      continue;
    OutputSection *target = sec->target;
    std::vector<OutputReloc> kept;
    for (const OutputReloc &r : sec->relocs) {
      const RelocDesc *desc = find_reloc(r.type);
      if (!desc || !resolved_at_link_time(r, *desc) || !target->has_file_data()) {
        kept.push_back(r);
        continue;
      }
      // R_CUDA_UNUSED_CLEAR*: clear the field only when the symbol is gone.
      bool clear = desc->actions[0].value == RelocValue::Clear;
      if (clear && r.sym && !r.sym->removed && (r.sym->defined() || r.sym->is_section_symbol))
        continue;
      size_t width = 8;
      for (const RelocAction &a : desc->actions)
        if (a.width && a.bitpos + a.width > 64)
          width = 16;
      if (r.offset + width > target->data.size())
        width = target->data.size() - std::min<u64>(r.offset, target->data.size());
      std::span<u8> word(target->data.data() + r.offset, width);
      RelocInputs in;
      i64 addend = r.addend;
      if (!sec->rela) {
        // REL: the addend is stored in the first field.
        const RelocAction &a0 = desc->actions[0];
        if (a0.width)
          addend = static_cast<i64>(extract_bits(word, a0.bitpos, a0.width));
      }
      u64 s = (r.sym ? symbol_offset(ctx, *r.sym) : 0) + r.bias;
      in.address = s + static_cast<u64>(addend);
      in.bank = r.sym ? constant_bank(r.sym->section) : 0;
      apply_reloc_fields(*desc, word, in);
    }
    for (OutputReloc &r : kept) {
      if (r.bias && sec->rela)
        r.addend += static_cast<i64>(r.bias);
      else if (r.bias)
        ctx.diag.fatal(fmt::format("unsupported: REL relocation against a merged section in '{}'",
                                   target->name));
    }
    sec->relocs = std::move(kept);
  }
}

} // namespace dlink
