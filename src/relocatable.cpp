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
  if (ctx.opts.verbose)
    ctx.diag.fatal("-r (relocatable link) with -v is not supported by dlink yet");
}

void refuse_unsupported_relocatable_inputs(Context &ctx) {
  if (!relocatable_output(ctx))
    return;
  auto refuse = [&](const InputObject &in, std::string_view what) {
    ctx.diag.fatal(fmt::format("-r (relocatable link) of '{}': {} is not supported by dlink yet",
                               in.name, what));
  };
  for (const InputObject *in : ctx.inputs) {
    if (in->elf.section_named(".nv_debug.shared"))
      refuse(*in, "shared memory outside a kernel (.nv_debug.shared)");
    for (const ElfSymbol &s : in->symbols) {
      if (s.is_shared_variable() && s.shndx == SHN_UNDEF)
        refuse(*in, fmt::format("the undefined shared variable '{}'", s.name));
      if (s.name == ".nv.ptx.const0.size")
        refuse(*in, "a reference to '.nv.ptx.const0.size'");
    }
  }
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
  // Every function's prototype is kept (none is called or not yet); an
  // empty .nv.prototype is not written.
  if (ctx.out.prototypes.empty())
    find_section(ctx, ".nv.prototype")->removed = true;
  // Kernels' shared sections that hold nothing are not written.
  for (OutputSection *sec : ctx.out.sections)
    if (sec->kind == SectionKind::Shared && sec->size == 0 && sec->shared_vars.empty())
      sec->removed = true;
}

} // namespace dlink
