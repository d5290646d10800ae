// Stage 3: memory layout (layout.h).
//
// Consumes the merged output model; fixes every link-time offset the
// relocation stage needs: shared variables move up by the reserved shared
// prefix of sm_90 and newer, data sections keep the concatenation offsets
// chosen while merging. Sizes never change after this stage.
#include "layout.h"

#include "output_model.h"

#include <algorithm>
#include <map>
#include <set>

namespace dlink {

u64 reserved_shared_bytes(const Context &ctx) { return ctx.arch.sm >= 90 ? 0x400 : 0; }

u64 symbol_offset(const Context &, const OutputSymbol &sym) {
  return sym.value + (sym.section && sym.section->detached ? sym.section->base : 0);
}

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
  // The section is as large as the variables placed in it (ptxas may have
  // padded the input's).
  if (!vars.empty())
    sec->size = offset;
}

// The reserved shared window (sm_110's workaround variable lives there)
// starts after the 0x40 bytes .nv.reservedSmem.offset0 names.
void place_reserved_shared_variables(OutputSection *sec) {
  constexpr u64 kReservedStart = 0x40;
  u64 offset = kReservedStart;
  for (OutputSymbol *v : sec->shared_vars) {
    offset = align_to(offset, std::max<u64>(v->value, 1));
    v->value = offset;
    offset += v->size;
  }
  if (!sec->shared_vars.empty())
    sec->size = offset;
}

using CalleeMap = std::multimap<const OutputSymbol *, const OutputSymbol *>;

// caller -> callee over the merged call graph's direct call edges.
CalleeMap direct_callees(const Context &ctx) {
  CalleeMap callees;
  for (auto &[caller, callee] : ctx.out.call_edges)
    if (caller && callee)
      callees.emplace(caller, callee);
  return callees;
}

// `kernel` and every function it reaches through direct calls.
std::set<const OutputSymbol *> reached_from(const OutputSymbol *kernel, const CalleeMap &callees) {
  std::set<const OutputSymbol *> reached{kernel};
  std::vector<const OutputSymbol *> work{kernel};
  while (!work.empty()) {
    const OutputSymbol *f = work.back();
    work.pop_back();
    auto range = callees.equal_range(f);
    for (auto it = range.first; it != range.second; ++it)
      if (reached.insert(it->second).second)
        work.push_back(it->second);
  }
  return reached;
}

// Every kernel, by its .nv.shared.<k> section, with the functions it reaches.
std::vector<std::pair<OutputSection *, std::set<const OutputSymbol *>>> kernels_by_shared_section(Context &ctx) {
  CalleeMap callees = direct_callees(ctx);
  std::vector<std::pair<OutputSection *, std::set<const OutputSymbol *>>> kernels;
  for (OutputSection *shared : ctx.out.sections) {
    if (shared->kind != SectionKind::Shared)
      continue;
    if (const OutputSymbol *kernel = find_global(ctx, shared->name.substr(11)))
      kernels.emplace_back(shared, reached_from(kernel, callees));
  }
  return kernels;
}

} // namespace

// Dynamic shared memory: a kernel that (itself or through a callee) uses an
// `extern __shared__` array keeps its .nv.shared.<k> even when it has no
// static shared data, aligned to 16; the array starts right after the
// kernel's static shared data, aligned to 16.
void layout_dynamic_shared(Context &ctx) {
  constexpr u64 kDynamicSharedAlign = 16;
  std::set<const OutputSymbol *> users;
  for (OutputSection *sec : ctx.out.sections)
    if (sec->kind == SectionKind::Reloc && sec->target && sec->target->func)
      for (const OutputReloc &r : sec->relocs)
        if (r.sym && r.sym->extern_shared)
          users.insert(sec->target->func);
  if (users.empty())
    return;
  for (auto &[shared, reached] : kernels_by_shared_section(ctx)) {
    bool uses = std::any_of(reached.begin(), reached.end(),
                            [&](const OutputSymbol *f) { return users.count(f) > 0; });
    if (!uses)
      continue;
    shared->uses_dynamic_shared = true;
    shared->align = std::max(shared->align, kDynamicSharedAlign);
    u64 start = align_to(shared->size, kDynamicSharedAlign);
    shared->size = start; // the static part is padded up to the dynamic array
    for (const OutputSymbol *f : reached) {
      u64 &off = ctx.out.dynamic_shared_offset[f];
      off = std::max(off, start);
    }
  }
}

// Namespace-scope __shared__ variables get one offset for the whole program
// (a device function's code is shared by all its callers); variables that
// no kernel uses together may overlap. Measured rules
// (docs/notes/semantics-findings.md §4): variables are grouped by the set of
// kernels reaching them; within a group, larger alignment first, then
// smaller size, then the later definition; groups are placed largest first,
// each at the lowest offset clear of every placed variable that shares a
// kernel with it. A kernel's .nv.shared.<k> then runs to the end of the
// highest variable it reaches, aligned to the largest alignment of all
// such variables. (Ties between equal-size groups are not fully understood.)
void layout_namespace_shared(Context &ctx) {
  std::vector<OutputSymbol *> vars;
  bool dynamic = false;
  for (auto &[name, sym] : ctx.out.extern_shared_by_name) {
    if (sym->namespace_shared)
      vars.push_back(sym);
    else if (sym->extern_shared)
      dynamic = true;
  }
  if (vars.empty())
    return;
  std::sort(vars.begin(), vars.end(), [](const OutputSymbol *a, const OutputSymbol *b) {
    return a->def_order < b->def_order;
  });
  if (OutputSection *debug = find_section(ctx, ".nv_debug.shared"); debug && !dynamic)
    debug->removed = true;

  std::multimap<const OutputSymbol *, const OutputSymbol *> users; // var -> function
  for (OutputSection *sec : ctx.out.sections)
    if (sec->kind == SectionKind::Reloc && sec->target && sec->target->func)
      for (const OutputReloc &r : sec->relocs)
        if (r.sym && r.sym->namespace_shared)
          users.emplace(r.sym, sec->target->func);
  auto kernels = kernels_by_shared_section(ctx);
  auto kernel_set = [&](const OutputSymbol *var) {
    std::set<size_t> set;
    auto range = users.equal_range(var);
    for (auto it = range.first; it != range.second; ++it)
      for (size_t k = 0; k < kernels.size(); k++)
        if (kernels[k].second.count(it->second))
          set.insert(k);
    return set;
  };

  struct Group {
    std::set<size_t> kernels;
    std::vector<OutputSymbol *> vars;
    std::vector<u64> offsets;
    u64 size = 0, align = 1;
  };
  std::vector<Group> groups;
  for (OutputSymbol *v : vars) {
    std::set<size_t> set = kernel_set(v);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const Group &g) { return g.kernels == set; });
    if (it == groups.end()) {
      groups.push_back({set, {}, {}, 0, 1});
      it = groups.end() - 1;
    }
    it->vars.push_back(v);
  }
  for (Group &g : groups) {
    std::stable_sort(g.vars.begin(), g.vars.end(), [](const OutputSymbol *a, const OutputSymbol *b) {
      u64 aa = std::max<u64>(a->value, 1), ab = std::max<u64>(b->value, 1);
      if (aa != ab)
        return aa > ab;
      if (a->size != b->size)
        return a->size < b->size;
      return a->def_order > b->def_order;
    });
    for (const OutputSymbol *v : g.vars) {
      u64 align = std::max<u64>(v->value, 1);
      g.size = align_to(g.size, align);
      g.offsets.push_back(g.size);
      g.size += v->size;
      g.align = std::max(g.align, align);
    }
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const Group &a, const Group &b) { return a.size > b.size; });

  u64 max_align = 1;
  for (const Group &g : groups)
    max_align = std::max(max_align, g.align);
  struct Placed {
    u64 begin, end;
    std::set<size_t> kernels;
  };
  std::vector<Placed> placed;
  std::vector<u64> namespace_end(kernels.size(), 0);
  for (Group &g : groups) {
    auto clashes = [&](u64 at) {
      for (const Placed &p : placed) {
        bool shared = std::any_of(g.kernels.begin(), g.kernels.end(),
                                  [&](size_t k) { return p.kernels.count(k) > 0; });
        if (shared && at < p.end && p.begin < at + g.size)
          return true;
      }
      return false;
    };
    std::vector<u64> candidates{0};
    for (const Placed &p : placed)
      candidates.push_back(align_to(p.end, g.align));
    std::sort(candidates.begin(), candidates.end());
    u64 at = 0;
    for (u64 c : candidates)
      if (!clashes(c)) {
        at = c;
        break;
      }
    placed.push_back({at, at + g.size, g.kernels});
    for (size_t k = 0; k < g.vars.size(); k++)
      g.vars[k]->value = at + g.offsets[k];
    for (size_t k : g.kernels) {
      namespace_end[k] = std::max(namespace_end[k], at + g.size);
      kernels[k].first->uses_namespace_shared = true;
    }
  }
  // A kernel's own static shared variables follow the program-wide ones.
  for (size_t k = 0; k < kernels.size(); k++) {
    OutputSection *shared = kernels[k].first;
    if (!shared->uses_namespace_shared)
      continue;
    u64 own_size = shared->size;
    u64 base = shared->shared_vars.empty() ? namespace_end[k] : align_to(namespace_end[k], shared->align);
    for (OutputSymbol *v : shared->shared_vars)
      v->value += base;
    shared->size = shared->shared_vars.empty() ? std::max(own_size, namespace_end[k]) : base + own_size;
    shared->align = std::max(shared->align, max_align);
  }
}

// Device functions' own constant banks (sm_75-89 OCG constants) are copied
// into the same-numbered bank of every kernel that reaches the function, at
// one offset that suits all of them. The banks go function by function, the
// function whose first bank was merged last first; a function's copies (one
// per input that defines it, kept or not) follow in merge order.
void merge_function_banks(Context &ctx) {
  CalleeMap callees = direct_callees(ctx);
  std::vector<OutputSymbol *> kernels;
  for (OutputSymbol *sym : ctx.out.locals)
    if ((sym->in_local_array || !sym->is_section_symbol) && sym->type == STT_FUNC && sym->is_entry() &&
        sym->defined())
      kernels.push_back(sym);
  for (OutputSymbol *sym : ctx.out.globals)
    if (sym->is_entry() && sym->defined() && !sym->removed)
      kernels.push_back(sym);
  auto reaches = [&](const OutputSymbol *kernel, std::string_view fn) {
    std::set<const OutputSymbol *> reached = reached_from(kernel, callees);
    return std::any_of(reached.begin(), reached.end(),
                       [&](const OutputSymbol *f) { return f->name == fn; });
  };
  auto bank_prefix = [](const OutputSection *bank) {
    return std::string(bank->name.substr(0, bank->name.find('.', 12)));
  };
  std::vector<std::vector<OutputSection *>> groups;
  std::map<std::string_view, size_t> group_of;
  for (OutputSection *bank : ctx.out.function_banks) {
    auto [it, fresh] = group_of.try_emplace(bank->name, groups.size());
    if (fresh)
      groups.emplace_back();
    groups[it->second].push_back(bank);
  }
  std::reverse(groups.begin(), groups.end());
  // A function's group creates the banks of the kernels that reach it, the
  // most recently created kernel first.
  std::vector<OutputSymbol *> newest_first = kernels;
  std::stable_sort(newest_first.begin(), newest_first.end(),
                   [](const OutputSymbol *a, const OutputSymbol *b) { return a->create_seq > b->create_seq; });
  for (const auto &group : groups)
    for (OutputSymbol *k : newest_first) {
      std::string name = bank_prefix(group.front()) + "." + std::string(k->name);
      if (!find_section(ctx, name) && reaches(k, group.front()->bank_function)) {
        create_callgraph_sections(ctx); // (nvlink has made them by now)
        create_section(ctx, name, group.front()->type, group.front()->flags, group.front()->align);
      }
    }
  for (const auto &group : groups) {
    std::string prefix = bank_prefix(group.front());
    std::vector<OutputSection *> targets;
    for (OutputSymbol *k : kernels)
      if (reaches(k, group.front()->bank_function))
        targets.push_back(find_section(ctx, prefix + "." + std::string(k->name)));
    for (OutputSection *bank : group) {
      u64 offset = 0;
      for (OutputSection *sec : targets)
        offset = std::max(offset, align_to(sec->size, bank->align));
      bank->base = offset;
      if (bank->lost_copy)
        ctx.out.null_symbol_value = offset;
      for (OutputSection *sec : targets) {
        sec->data.resize(offset, 0);
        sec->data.insert(sec->data.end(), bank->data.begin(), bank->data.end());
        sec->size = sec->data.size();
        sec->align = std::max(sec->align, bank->align);
      }
    }
  }
}

// Static shared memory a kernel may declare: 48 KiB, except for the
// arch-specific ('a') targets, which allow the whole shared memory of the
// chip (measured: sm_90a/sm_100a/sm_110a 0x38c00, sm_120a 0x18c00).
u64 max_static_shared(const Arch &arch) {
  if (arch.variant != Arch::Variant::Specific)
    return 0xc000;
  return arch.sm >= 120 ? 0x18c00 : 0x38c00;
}

void layout_memory(Context &ctx) {
  merge_function_banks(ctx);
  for (OutputSection *sec : ctx.out.sections)
    if (sec->kind == SectionKind::Shared)
      place_shared_variables(sec);
  layout_namespace_shared(ctx);
  layout_dynamic_shared(ctx);
  std::vector<OutputSection *> all = ctx.out.sections;
  all.insert(all.end(), ctx.out.deferred_sections.begin(), ctx.out.deferred_sections.end());
  for (OutputSection *sec : all) {
    switch (sec->kind) {
    case SectionKind::Shared:
      if (u64 max = max_static_shared(ctx.arch); sec->size > max) // reported after the stack sizes
        ctx.out.late_errors.push_back(fmt::format("Entry function '{}' uses too much shared data "
                                                  "(0x{:x} bytes, 0x{:x} max)",
                                                  sec->name.substr(11), sec->size, max));
      if (sec->size == 0 && !sec->uses_dynamic_shared && !sec->uses_namespace_shared)
        sec->removed = true;
      else
        sec->size += reserved_shared_bytes(ctx);
      sec->type = SHT_NOBITS;
      break;
    case SectionKind::SharedReserved:
      place_reserved_shared_variables(sec);
      sec->type = SHT_NOBITS;
      break;
    case SectionKind::DebugShared:
      // Its variables were laid out into the kernels' sections; it only marks
      // the dynamic shared window (sm_100+: after the reserved prefix).
      sec->size = ctx.arch.is_mercury() ? reserved_shared_bytes(ctx) : 0;
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
  // executable. (sm_100+: the reserved-shared-memory symbols stay CUDA
  // variables and get the reserved window's offset and size.)
  std::vector<OutputSymbol *> symbols = ctx.out.globals;
  for (OutputSymbol *sym : ctx.out.locals)
    if (sym->in_local_array)
      symbols.push_back(sym);
  for (OutputSymbol *sym : symbols) {
    if (ctx.arch.is_mercury() && sym->name.starts_with(".nv.reservedSmem.")) {
      sym->type = STT_CUDA_VARIABLE;
      if (sym->name == ".nv.reservedSmem.offset0")
        sym->value = 0x40;
      else if (sym->name == ".nv.reservedSmem.cap")
        sym->value = 0x400;
      continue;
    }
    if (sym->type == STT_CUDA_VARIABLE) {
      sym->type = STT_OBJECT;
      sym->other &= static_cast<u8>(~0xe0);
    }
  }
}

} // namespace dlink
