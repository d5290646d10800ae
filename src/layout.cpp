// Stage 3: memory layout (layout.h).
//
// Consumes the merged output model; fixes every link-time offset the
// relocation stage needs: shared variables move up by the reserved shared
// prefix of sm_90 and newer, data sections keep the concatenation offsets
// chosen while merging. Sizes never change after this stage.
#include "layout.h"

#include <algorithm>

namespace dlink {

u64 reserved_shared_bytes(const Context &ctx) { return ctx.arch.sm >= 90 ? 0x400 : 0; }

u64 symbol_offset(const Context &, const OutputSymbol &sym) { return sym.value; }

namespace {

// Places a kernel's shared variables: larger alignments first, merge order
// within an alignment. (In relocatable cubins a shared variable's st_value
// holds its alignment.)
void place_shared_variables(OutputSection *sec) {
  std::vector<OutputSymbol *> vars = sec->shared_vars;
  std::stable_sort(vars.begin(), vars.end(), [](const OutputSymbol *a, const OutputSymbol *b) {
    return a->value > b->value;
  });
  u64 offset = 0;
  for (OutputSymbol *v : vars) {
    offset = align_to(offset, std::max<u64>(v->value, 1));
    v->value = offset;
    offset += v->size;
  }
}

} // namespace

void layout_memory(Context &ctx) {
  for (OutputSection *sec : ctx.out.sections) {
    switch (sec->kind) {
    case SectionKind::Shared:
      place_shared_variables(sec);
      if (sec->size == 0)
        sec->removed = true;
      else
        sec->size += reserved_shared_bytes(ctx);
      sec->type = SHT_NOBITS;
      break;
    case SectionKind::Global:
      sec->type = SHT_NOBITS;
      break;
    case SectionKind::GlobalInit:
    case SectionKind::Constant:
      sec->type = SHT_PROGBITS;
      break;
    default:
      break;
    }
  }
  // Variables lose their memory-space bits; they are plain objects in an
  // executable.
  for (OutputSymbol *sym : ctx.out.globals) {
    if (sym->type == STT_CUDA_VARIABLE) {
      sym->type = STT_OBJECT;
      sym->other &= static_cast<u8>(~0xe0);
    }
  }
}

} // namespace dlink
