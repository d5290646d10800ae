// nvlink -g (debug_link.h).
#include "debug_link.h"
#include "arch_format.h"

#include "dead_code.h"
#include "layout.h"
#include "output_model.h"
#include "relocatable.h"

#include <algorithm>
#include <map>
#include <set>

namespace dlink {

bool compiled_with_device_debug(const InputObject &obj) {
  return obj.elf.find_section(".debug_info").has_value() ||
         obj.elf.find_section(".nv_debug_info_reg_sass").has_value();
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
  // (--preserve-relocs -g: a -r input's `externsharedinstance` keeps its
  // symbol where the reserved window shifts it (sm_90) or beside a
  // namespace-scope variable; elsewhere nvlink drops it, and its references
  // are not listed: glink_two_stage_dynamic and relocatable_two_stage_shared
  // with --preserve-relocs -g at sm_75, sm_90, sm_100, sm_120.)
  auto esi = ctx.out.extern_shared_by_name.find("externsharedinstance");
  if (ctx.opts.preserve_relocs && !relocatable_output(ctx) && esi != ctx.out.extern_shared_by_name.end() &&
      esi->second->in_local_array && debug_shared_variables_end(ctx) == 0 &&
      (reserved_shared_bytes(ctx) == 0 || arch_format(ctx.arch).debug_shared_after_reserved_window)) {
    OutputSymbol *sym = esi->second;
    sym->in_local_array = false;
    std::erase(ctx.out.locals, sym);
    if (auto name = std::find(ctx.out.strtab_names.begin(), ctx.out.strtab_names.end(), sym->name);
        name != ctx.out.strtab_names.end())
      ctx.out.strtab_names.erase(name);
  }
}

void place_preserved_dynamic_arrays(Context &ctx) {
  if (!preserved_shared_internal(ctx) || relocatable_output(ctx))
    return;
  OutputSection *window = find_section(ctx, ".nv_debug.shared");
  if (!window)
    return;
  // (Without a namespace-scope variable in .nv_debug.shared no reference
  // to an array is listed: preserve_relocs_dynamic_deleted.)
  if (debug_shared_variables_end(ctx) == 0)
    return;
  // (When nvlink drops unused symbols an array is worth all ones, as an
  // unused variable is, unless the reserved window shifts it: on sm_90.
  // sm_100+ shifts it later; sm_75-89 have no window. A dropped array that
  // a listed reference names stops the link: differential-ptx seeds 1, 9,
  // 21 at sm_75, sm_100, sm_120, preserve_relocs_dynamic.)
  if (reserved_shared_bytes(ctx) == 0 || arch_format(ctx.arch).debug_shared_after_reserved_window) {
    for (const OutputSection *sec : ctx.out.sections)
      if (sec->kind == SectionKind::Reloc && sec->target && lists_dynamic_array_reference(ctx, *sec->target))
        for (const OutputReloc &r : sec->relocs)
          if (r.sym && r.sym->extern_shared && !r.sym->dynamic_then_defined)
            ctx.diag.fatal("Internal error: reference to deleted symbol");
    return;
  }
  // (Each after the last global symbol of the input that first named it,
  // after the arrays placed there before it.)
  const OutputSymbol *last_anchor = nullptr;
  bool placed = false;
  size_t at = 0;
  for (const auto &entry : ctx.out.preserved_dynamic_arrays) {
    OutputSymbol *sym = entry.first; // (no structured binding: the lambdas capture them)
    const OutputSymbol *anchor = entry.second;
    if (!sym->extern_shared || sym->dynamic_then_defined)
      continue;
    // (Each an OBJECT STV_INTERNAL of .nv_debug.shared worth all ones,
    // .symtab adding debug_shared_symbol_bias.)
    auto make_symbol = [&](u8 bind) {
      sym->bind = bind;
      sym->type = STT_OBJECT;
      sym->other = 1; // STV_INTERNAL
      sym->section = window;
      sym->debug_shared_symbol = true;
      sym->value = ~u64{0};
      sym->size = 0;
    };
    // (A -r output's kernels' `externsharedinstance`: WEAK, among the
    // locals where the merge first saw it; its references are not listed:
    // relocatable_two_stage_shared with --preserve-relocs.)
    if (sym->name == "externsharedinstance") {
      make_symbol(STB_WEAK);
      sym->in_local_array = true;
      auto local_at = std::find_if(ctx.out.locals.begin(), ctx.out.locals.end(),
                                   [&](const OutputSymbol *l) { return l->create_seq > sym->create_seq; });
      // (Its name follows the one of the symbol before it.)
      auto &names = ctx.out.strtab_names;
      auto name_at = names.end();
      if (local_at != ctx.out.locals.begin())
        if (auto prev = std::find(names.rbegin(), names.rend(), (*(local_at - 1))->name); prev != names.rend())
          name_at = prev.base();
      names.insert(name_at, sym->name);
      ctx.out.locals.insert(local_at, sym);
      continue;
    }
    if (!placed || anchor != last_anchor) {
      auto it = std::find(ctx.out.globals.begin(), ctx.out.globals.end(), anchor);
      // (An anchor the link removed since (an unused variable): where it
      // was, after the symbols created before it; relocatable_two_stage_shared
      // with --preserve-relocs, s_scale.)
      if (anchor && it == ctx.out.globals.end())
        at = static_cast<size_t>(
            std::find_if(ctx.out.globals.begin(), ctx.out.globals.end(),
                         [&](const OutputSymbol *g) { return g->create_seq > anchor->create_seq; }) -
            ctx.out.globals.begin());
      else
        at = anchor ? static_cast<size_t>(it - ctx.out.globals.begin()) + 1 : 0;
      last_anchor = anchor;
      placed = true;
    }
    make_symbol(STB_GLOBAL);
    // (its name: with the globals' at the end of .strtab)
    ctx.out.globals.insert(ctx.out.globals.begin() + static_cast<std::ptrdiff_t>(at++), sym);
  }
}

bool lists_dynamic_array_reference(const Context &ctx, const OutputSection &target) {
  return target.func && !ctx.out.dynamic_shared_offset.count(target.func);
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
