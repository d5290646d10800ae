// -r (--relocatable-link): the stages only a relocatable link runs
// (relocatable.h; measured on nvlink 13.0.88, docs/notes/relocatable.md).
#include "relocatable.h"

#include "output_model.h"

#include <algorithm>

namespace dlink {

void check_relocatable_command_line(Context &ctx) {
  if (!relocatable_output(ctx))
    return;
  if (ctx.arch.is_mercury())
    ctx.diag.fatal(fmt::format("-r (relocatable link) for {} is not supported by dlink yet",
                               ctx.arch.name()));
}

void finish_relocatable(Context &ctx) {
  // A function's EXTERNS record keeps the symbols still undefined; it
  // goes when none is left.
  for (OutputSection *sec : ctx.out.sections) {
    if (sec->kind != SectionKind::FunctionInfo)
      continue;
    for (InfoRecord &r : sec->records)
      if (r.attr == EIATTR_EXTERNS)
        std::erase_if(r.syms, [](const OutputSymbol *s) { return s && s->defined(); });
    std::erase_if(sec->records, [](const InfoRecord &r) {
      return r.attr == EIATTR_EXTERNS && r.syms.empty();
    });
    for (InfoRecord &r : sec->records)
      if (r.attr == EIATTR_EXTERNS)
        r.payload.resize(4 * r.syms.size());
  }
  // Undefined symbols: a weak reference becomes a global one, and an
  // undefined CUDA variable's value is all ones.
  for (OutputSymbol *sym : ctx.out.globals) {
    if (sym->defined() || sym->removed)
      continue;
    if (sym->bind == STB_WEAK)
      sym->bind = STB_GLOBAL;
    if (sym->type == STT_CUDA_VARIABLE)
      sym->value = ~u64{0};
  }
  create_callgraph_sections(ctx);
  // Kernels' shared sections that hold nothing are not written.
  for (OutputSection *sec : ctx.out.sections)
    if (sec->kind == SectionKind::Shared && sec->size == 0 && sec->shared_vars.empty())
      sec->removed = true;
}

} // namespace dlink
