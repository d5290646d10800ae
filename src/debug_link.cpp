// nvlink -g (debug_link.h).
#include "debug_link.h"
#include "arch_format.h"

#include "dead_code.h"
#include "layout.h"
#include "output_model.h"

#include <map>
#include <set>

namespace dlink {

namespace {

// nvcc -G objects have .debug_info; PTX that the link compiles with -g has
// at least the register maps (PTX without .loc/.file gets no .debug_info).
bool compiled_with_device_debug(const InputObject &obj) {
  return obj.elf.find_section(".debug_info").has_value() ||
         obj.elf.find_section(".nv_debug_info_reg_sass").has_value();
}

} // namespace

void check_debug_link(Context &ctx) {
  if (!ctx.opts.debug)
    return;
  if (ctx.arch.is_mercury()) {
    for (const InputObject *obj : ctx.inputs) {
      if (compiled_with_device_debug(*obj))
        continue;
      for (const ElfSymbol &s : obj->symbols)
        if (s.type() == STT_FUNC && s.shndx != SHN_UNDEF && (s.other & STO_CUDA_ENTRY))
          ctx.diag.fatal(fmt::format(
              "-g (debug link) of sm_100 and newer kernels compiled without -G ('{}' in '{}') "
              "is not supported by dlink yet",
              s.name, obj->name));
    }
  }
}

void place_debug_shared_symbols(Context &ctx) {
  if (!debug_shared_symbols(ctx))
    return;
  // The functions whose code refers to each array, and the array's start in
  // them (layout_dynamic_shared).
  std::map<const OutputSymbol *, std::set<u64>> starts;
  for (const OutputSection *sec : ctx.out.sections)
    if (sec->kind == SectionKind::Reloc && sec->target && sec->target->func)
      for (const OutputReloc &r : sec->relocs)
        if (r.sym && r.sym->debug_shared_symbol) {
          auto it = ctx.out.dynamic_shared_offset.find(sec->target->func);
          starts[r.sym].insert(it == ctx.out.dynamic_shared_offset.end() ? 0 : it->second);
        }
  for (const auto &[name, sym] : ctx.out.extern_shared_by_name) {
    if (!sym->debug_shared_symbol || sym->namespace_shared)
      continue; // (namespace-scope variables: placed by layout_shared)
    const std::set<u64> &at = starts[sym];
    if (at.size() > 1)
      ctx.diag.fatal(fmt::format("-g (debug link) with extern __shared__ array '{}' starting at "
                                 "different offsets in the kernels using it is not supported by "
                                 "dlink yet",
                                 sym->name));
    sym->value = at.empty() ? 0 : *at.begin(); // (.symtab adds debug_shared_symbol_bias)
    if (!sym->dynamic_then_defined) // (one an input defines: the defined size)
      sym->size = 0;
  }
}

u64 debug_shared_symbol_bias(const Context &ctx, const OutputSymbol &sym, bool program_wide) {
  if (ctx.opts.relocatable || sym.is_section_symbol || !sym.section)
    return 0;
  bool shifted = (sym.bind == STB_LOCAL && sym.section->kind == SectionKind::Shared) ||
                 sym.namespace_shared ||
                 // (dynamic arrays: on sm_100+, and on sm_90 once a namespace-scope
                 // variable is program-wide: probes v0-v2, shared_order)
                 (sym.debug_shared_symbol && sym.extern_shared &&
                  (arch_format(ctx.arch).debug_shared_after_reserved_window || program_wide));
  return shifted ? reserved_shared_bytes(ctx) : 0;
}

u64 debug_shared_variables_end(const Context &ctx) {
  u64 end = 0;
  if (debug_shared_symbols(ctx))
    for (const auto &[name, sym] : ctx.out.extern_shared_by_name)
      if (sym->namespace_shared && !sym->removed && sym->section &&
          sym->section->kind == SectionKind::DebugShared)
        end = std::max(end, sym->value + sym->size);
  return end;
}

} // namespace dlink
