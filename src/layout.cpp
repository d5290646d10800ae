// Stage 3: memory layout (layout.h).
//
// Consumes the merged output model; fixes every link-time offset the
// relocation stage needs: shared variables move up by the reserved shared
// prefix of sm_90 and newer, data sections keep the concatenation offsets
// chosen while merging. Sizes never change after this stage.
#include "layout.h"

#include "arch_format.h"
#include "debug_link.h"
#include "merge.h"
#include "output_model.h"
#include "relocatable.h"

#include <algorithm>
#include <map>
#include <set>

namespace dlink {

// The dynamic shared window (`extern __shared__` arrays) starts 16-aligned.
constexpr u64 kDynamicSharedAlign = 16;

u64 reserved_shared_bytes(const Context &ctx) { return ctx.arch.sm >= 90 ? 0x400 : 0; }

u64 symbol_offset(const Context &, const OutputSymbol &sym) {
  return sym.value + (sym.section && sym.section->detached ? sym.section->base : 0);
}

namespace {

// nvlink's list sort, not stable: deal the list alternately onto the fronts
// of two lists (even and odd positions), sort both, then merge, taking the
// even list's head when first(even head, odd head) holds, else the odd one's.
template <class First>
std::vector<OutputSymbol *> list_sort(const std::vector<OutputSymbol *> &list, const First &first) {
  if (list.size() <= 1)
    return list;
  std::vector<OutputSymbol *> even, odd;
  for (size_t i = 0; i < list.size(); i++)
    (i % 2 ? odd : even).push_back(list[i]);
  std::reverse(even.begin(), even.end());
  std::reverse(odd.begin(), odd.end());
  even = list_sort(even, first);
  odd = list_sort(odd, first);
  std::vector<OutputSymbol *> merged;
  size_t e = 0, o = 0;
  while (e < even.size() && o < odd.size())
    merged.push_back(first(even[e], odd[o]) ? even[e++] : odd[o++]);
  merged.insert(merged.end(), even.begin() + e, even.end());
  merged.insert(merged.end(), odd.begin() + o, odd.end());
  return merged;
}

// In relocatable cubins a shared variable's st_value holds its alignment.
u64 shared_align(const OutputSymbol *v) { return std::max<u64>(v->value, 1); }

// Places a kernel's own shared variables (in merge order), then the
// namespace-scope ones only this kernel uses (in the program-wide order),
// from `base`: sorted by larger alignment, then smaller size, with
// list_sort (ties keep the even list first), packed.
// Returns the largest alignment among them (1 when there are none).
u64 place_shared_variables(OutputSection *sec, u64 base = 0,
                           const std::vector<OutputSymbol *> &only_here = {}) {
  std::vector<OutputSymbol *> vars = sec->shared_vars;
  vars.insert(vars.end(), only_here.begin(), only_here.end());
  auto before = [](const OutputSymbol *a, const OutputSymbol *b) {
    if (shared_align(a) != shared_align(b))
      return shared_align(a) > shared_align(b);
    return a->size < b->size;
  };
  vars = list_sort(vars, [&](const OutputSymbol *even, const OutputSymbol *odd) {
    return !before(odd, even);
  });
  u64 offset = base, max_align = 1;
  for (OutputSymbol *v : vars) {
    max_align = std::max(max_align, shared_align(v));
    offset = align_to(offset, shared_align(v));
    v->value = offset;
    offset += v->size;
  }
  // The section is as large as the variables placed in it (ptxas may have
  // padded the input's).
  if (!vars.empty())
    sec->size = offset;
  else
    sec->size = std::max(sec->size, base);
  return max_align;
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

// Every kernel, by its .nv.shared.<k> section, with the functions it reaches.
std::vector<std::pair<OutputSection *, std::set<const OutputSymbol *>>> kernels_by_shared_section(Context &ctx) {
  CalleeMap callees = callees_with_indirect(ctx);
  std::vector<std::pair<OutputSection *, std::set<const OutputSymbol *>>> kernels;
  for (OutputSection *shared : ctx.out.sections) {
    if (shared->kind != SectionKind::Shared)
      continue;
    const OutputSymbol *kernel = find_global(ctx, shared->name.substr(11));
    // (A `static __global__` kernel is a local function: found through its
    // code section; HeCBench clock's timedReduction with a dynamic array.
    // Not with -r -g, where nvlink gives it no section for the array:
    // static_kernel_dynamic_shared, measured at sm_75, sm_90 and sm_100.)
    if (!kernel && !(relocatable_output(ctx) && writes_debug_info(ctx)))
      if (const OutputSection *text = find_section(ctx, ".text." + std::string(shared->name.substr(11))))
        if (text->func && text->func->bind == STB_LOCAL && text->func->is_entry())
          kernel = text->func;
    if (kernel)
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
  std::set<const OutputSymbol *> users;
  std::map<const OutputSymbol *, std::set<const OutputSymbol *>> users_of; // -g: array -> functions
  for (OutputSection *sec : ctx.out.sections)
    if (sec->kind == SectionKind::Reloc && sec->target && sec->target->func)
      for (const OutputReloc &r : sec->relocs)
        if (r.sym && r.sym->extern_shared && !r.sym->dynamic_then_defined) {
          users.insert(sec->target->func);
          if (r.sym->debug_shared_symbol)
            users_of[r.sym].insert(sec->target->func);
        }
  if (users.empty())
    return;
  auto kernels = kernels_by_shared_section(ctx);
  for (auto &[shared, reached] : kernels) {
    bool uses = std::any_of(reached.begin(), reached.end(),
                            [&](const OutputSymbol *f) { return users.count(f) > 0; });
    if (!uses)
      continue;
    shared->uses_dynamic_shared = true;
    shared->align = std::max(shared->align, kDynamicSharedAlign);
    shared->size = align_to(shared->size, kDynamicSharedAlign); // padded up to the array
  }
  // A function's code has one address for the array: the largest start of
  // the kernels reaching it, and each of those kernels grows to it, until
  // nothing changes. (-g: the array's symbol has one address too, so every
  // function using it takes the largest start among them: probe dd.cu,
  // global_shared.)
  auto &offset = ctx.out.dynamic_shared_offset;
  // (-r -g: only a kernel whose own code uses an array grows to its start;
  // one reaching it through a device function keeps its size, as the final
  // link lays it out again: shared_order's kd1 with -r -g.)
  const bool direct_users_only = relocatable_output(ctx);
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto &[array, fns] : users_of) {
      u64 start = 0;
      for (const OutputSymbol *f : fns)
        start = std::max(start, offset[f]);
      for (const OutputSymbol *f : fns)
        if (offset[f] < start) {
          offset[f] = start;
          changed = true;
        }
    }
    for (auto &[shared, reached] : kernels)
      for (const OutputSymbol *f : reached)
        if (users.count(f) && offset[f] < shared->size) {
          offset[f] = shared->size;
          changed = true;
        }
    for (auto &[shared, reached] : kernels)
      for (const OutputSymbol *f : reached)
        if (users.count(f) && shared->size < offset[f] && (!direct_users_only || f->is_entry())) {
          shared->size = offset[f];
          changed = true;
        }
  }
}

// The largest alignment of the inputs' .nv_debug.shared sections.
u64 inputs_debug_shared_align(const Context &ctx) {
  u64 align = 1;
  for (const InputObject *obj : ctx.inputs)
    if (const ElfSection *sec = obj->elf.section_named(".nv_debug.shared"))
      align = std::max<u64>(align, sec->addralign);
  return align;
}

bool named_by_debug_relocation(const Context &ctx, const OutputSymbol *v) {
  for (const OutputSection *sec : ctx.out.sections)
    if (sec->kind == SectionKind::Reloc && sec->target && sec->target->kind == SectionKind::Debug)
      for (const OutputReloc &r : sec->relocs)
        if (r.sym == v)
          return true;
  return false;
}

// .nv_debug.shared stays for a dynamic array; -g keeps it for the
// program-wide variables' symbols too, aligned as the inputs' copies.
// Without -g it marks the window with alignment 16, and goes as well once
// a program-wide placement's alignment exceeds that (measured, sm_90:
// namespace variables aligned 4-128 with a dynamic array; a -r output's
// section of alignment 32: relocatable_two_stage_dynamic).
void finish_debug_shared(Context &ctx, bool dynamic, bool program_wide, u64 max_align) {
  OutputSection *debug = find_section(ctx, ".nv_debug.shared");
  if (!debug)
    return;
  if (!dynamic) {
    if (debug_shared_symbols(ctx) && program_wide)
      debug->align = inputs_debug_shared_align(ctx);
    else
      debug->removed = true;
  } else if (!debug_shared_symbols(ctx)) {
    if (program_wide && max_align > kDynamicSharedAlign)
      debug->removed = true;
    else
      debug->align = kDynamicSharedAlign;
  } else if (!program_wide) {
    // (-g, --preserve-relocs: 16 as well where no variable was placed
    // program-wide, also beside variables aligned past it; differential-ptx
    // --mode g, seeds 11, 12, 15, 76 at sm_90.)
    debug->align = kDynamicSharedAlign;
  }
}

// Namespace-scope __shared__ variables (and a device function's own
// __shared__ ones) get one offset for the whole program, since a device
// function's code is shared by all its callers. Measured rules
// (docs/notes/semantics-findings.md §4):
// 1. All of them, dynamic `extern __shared__` arrays (size 0) included, in
//    definition order (an array never defined: where first seen), are
//    list_sorted by size, larger first (ties take the odd list's head).
// 2. In that order, each variable some code refers to (removed code
//    included) that is not used by exactly one kernel goes to the lowest
//    offset that is 0 or the end of a variable placed before, lies inside
//    no placed variable, and from which it (padding for its alignment
//    included) overlaps no placed variable used by a kernel that uses it.
// 3. A variable used by exactly one kernel is laid out with that kernel's
//    own shared variables, after the end of the kernel's program-wide ones.
// A kernel's .nv.shared.<k> then runs to the end of its last variable. Its
// alignment is the largest of the variables in it; once step 2 placed any
// variable, that of all namespace-scope variables (used or not) as well.
void layout_shared(Context &ctx) {
  // A kernel's shared section runs to the end of its variables. A -r
  // output's section that holds none is only the padding that link gave a
  // kernel using a dynamic array (relocatable.md: 0x10 without static data);
  // nvlink's executable link starts such a kernel at 0 (measured, sm_90).
  if (ctx.out.prelinked_input)
    for (OutputSection *sec : ctx.out.sections)
      if (sec->kind == SectionKind::Shared && sec->shared_vars.empty())
        sec->size = 0;
  std::vector<OutputSymbol *> vars;
  bool dynamic = false;
  u64 max_align = 1;
  for (auto &[name, sym] : ctx.out.extern_shared_by_name) {
    if (sym->namespace_shared)
      max_align = std::max(max_align, shared_align(sym));
    else if (sym->extern_shared)
      dynamic = true;
    if ((sym->namespace_shared || sym->extern_shared) && !sym->dynamic_then_defined)
      vars.push_back(sym);
  }
  std::sort(vars.begin(), vars.end(), [](const OutputSymbol *a, const OutputSymbol *b) {
    return a->def_order < b->def_order;
  });
  bool any_namespace = std::any_of(vars.begin(), vars.end(),
                                   [](const OutputSymbol *v) { return v->namespace_shared; });
  if (!any_namespace) {
    for (OutputSection *sec : ctx.out.sections)
      if (sec->kind == SectionKind::Shared && !sec->shared_vars.empty())
        sec->align = place_shared_variables(sec);
    if (dynamic)
      finish_debug_shared(ctx, dynamic, false, max_align);
    return;
  }

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

  vars = list_sort(vars, [](const OutputSymbol *even, const OutputSymbol *odd) {
    return even->size > odd->size;
  });
  bool program_wide = false; // some variable went through step 2
  struct Block {
    u64 begin, end;
    std::set<size_t> kernels;
  };
  std::vector<Block> placed;
  std::vector<u64> namespace_end(kernels.size(), 0);
  std::vector<std::vector<OutputSymbol *>> only_here(kernels.size());
  for (OutputSymbol *v : vars) {
    if (!v->namespace_shared)
      continue;
    if (!users.count(v) && !v->referenced_by_dead_code) {
      // A variable no code uses: its -G DWARF location is all ones (plus
      // the input's addend, the reserved prefix) and -g gives it no symbol
      // and no name (glink_namespace_shared, gdebug_unused_shared).
      v->value = ~u64{0};
      // (--preserve-relocs: DWARF naming it stops nvlink, every target:
      // gdebug_unused_shared, glink_namespace_shared, glink_suppress_shared.)
      if (v->debug_shared_symbol && ctx.opts.preserve_relocs && named_by_debug_relocation(ctx, v))
        ctx.diag.fatal("Internal error: reference to deleted symbol");
      if (v->debug_shared_symbol)
        forget_symbol(ctx, v);
      continue;
    }
    std::set<size_t> set = kernel_set(v);
    for (size_t k : set)
      kernels[k].first->uses_namespace_shared = true;
    if (set.size() == 1) {
      only_here[*set.begin()].push_back(v);
      if (v->debug_shared_symbol) // (-g: its symbol is in the kernel's section)
        v->section = kernels[*set.begin()].first;
      continue;
    }
    program_wide = true;
    auto clear = [&](u64 begin, u64 end) {
      return std::none_of(placed.begin(), placed.end(), [&](const Block &p) {
        bool shared =
            std::any_of(set.begin(), set.end(), [&](size_t k) { return p.kernels.count(k) > 0; });
        return shared && begin < p.end && p.begin < end;
      });
    };
    auto inside_another = [&](u64 c) {
      return std::any_of(placed.begin(), placed.end(),
                         [&](const Block &p) { return p.begin < c && c < p.end; });
    };
    std::vector<u64> candidates{0};
    for (const Block &p : placed)
      candidates.push_back(p.end);
    std::sort(candidates.begin(), candidates.end());
    u64 at = 0;
    for (u64 c : candidates)
      if (!inside_another(c) && clear(c, align_to(c, shared_align(v)) + v->size)) {
        at = c;
        break;
      }
    v->value = align_to(at, shared_align(v));
    placed.push_back({at, v->value + v->size, set});
    for (size_t k : set)
      namespace_end[k] = std::max(namespace_end[k], v->value + v->size);
  }
  finish_debug_shared(ctx, dynamic, program_wide, max_align);
  // With a dynamic array in the link, a program-wide placement whose
  // alignment (all namespace-scope variables') reaches the dynamic window's
  // 16 gives every kernel a shared section of that alignment, a kernel that
  // uses no shared memory too (measured, sm_90: a float4 or 32-aligned
  // variable used by dead code or by two kernels, with an `extern
  // __shared__` array referenced by a kernel or only by dead code; not with
  // 4- or 8-aligned ones, nor without the array).
  if (dynamic && program_wide && max_align >= kDynamicSharedAlign)
    for (auto &[shared, reached] : kernels)
      shared->uses_namespace_shared = true;
  // Each kernel's own variables and those only it uses follow its
  // program-wide ones.
  std::set<const OutputSection *> done;
  for (size_t k = 0; k < kernels.size(); k++) {
    OutputSection *shared = kernels[k].first;
    done.insert(shared);
    bool has_vars = !shared->shared_vars.empty() || !only_here[k].empty();
    u64 align = place_shared_variables(shared, namespace_end[k], only_here[k]);
    if (has_vars || shared->uses_namespace_shared)
      shared->align = program_wide ? std::max(align, max_align) : align;
  }
  for (OutputSection *sec : ctx.out.sections)
    if (sec->kind == SectionKind::Shared && !done.count(sec) && !sec->shared_vars.empty())
      sec->align = place_shared_variables(sec);
}

// Device functions' own constant banks (sm_75-89 OCG constants) are copied
// into the same-numbered bank of every kernel that reaches the function, at
// one offset that suits all of them. The banks go function by function, the
// function whose first bank was merged last first (dropped copies count);
// a function's copies follow in merge order: the kept one and every copy
// merged after it. The banks of copies merged before the kept one (a later
// copy with fewer registers won) are not copied at all.
void merge_function_banks(Context &ctx) {
  if (ctx.out.function_banks.empty())
    return;
  CalleeMap callees = direct_callees(ctx);
  std::vector<OutputSymbol *> kernels;
  for (OutputSymbol *sym : ctx.out.locals)
    if ((sym->in_local_array || !sym->is_section_symbol) && sym->type == STT_FUNC && sym->is_entry() &&
        sym->defined())
      kernels.push_back(sym);
  for (OutputSymbol *sym : ctx.out.globals)
    if (sym->is_entry() && sym->defined() && !sym->removed)
      kernels.push_back(sym);
  auto reaches = [&](const OutputSymbol *kernel, const OutputSection *bank) {
    std::set<const OutputSymbol *> reached = reached_from(kernel, callees);
    if (bank->bank_local) {
      const auto &map = bank->bank_input->sym_map;
      return bank->bank_symbol < map.size() && reached.count(map[bank->bank_symbol]) > 0;
    }
    return std::any_of(reached.begin(), reached.end(),
                       [&](const OutputSymbol *f) { return f->name == bank->bank_function; });
  };
  // Where the target names optimizer banks apart (sm_100+:
  // ".nv.constant.optimizer.<k>"), the kernels' banks are created under that
  // name, each with an empty RELA section, and take their
  // ".nv.constant2.<k>" names in finish_sections (§16).
  const ArchFormat &format = arch_format(ctx.arch);
  const std::string optimizer =
      format.optimizer_bank_prefix.empty() ? "" : std::string(format.optimizer_bank_prefix) + ".";
  auto final_prefix = [](const OutputSection *bank) {
    return std::string(bank->name.substr(0, bank->name.find('.', 12)));
  };
  auto bank_prefix = [&](const OutputSection *bank) {
    std::string prefix = final_prefix(bank);
    return !optimizer.empty() && prefix == ".nv.constant2" ? std::string(format.optimizer_bank_prefix) : prefix;
  };
  std::vector<std::vector<OutputSection *>> groups;
  std::map<std::pair<std::string_view, const InputObject *>, size_t> group_of;
  for (OutputSection *bank : ctx.out.function_banks) {
    auto key = std::make_pair(bank->name, bank->bank_local ? bank->bank_input : nullptr);
    auto [it, fresh] = group_of.try_emplace(key, groups.size());
    if (fresh)
      groups.emplace_back();
    groups[it->second].push_back(bank);
  }
  // (The group keeps the place of its first bank even when that one is
  // a superseded copy's.)
  std::erase_if(groups, [](const auto &group) {
    return std::all_of(group.begin(), group.end(), [](const OutputSection *b) { return b->superseded_copy; });
  });
  std::reverse(groups.begin(), groups.end());
  // A function's group creates the banks of the kernels that reach it, the
  // most recently created kernel first.
  std::vector<OutputSymbol *> newest_first = kernels;
  std::stable_sort(newest_first.begin(), newest_first.end(),
                   [](const OutputSymbol *a, const OutputSymbol *b) { return a->create_seq > b->create_seq; });
  for (const auto &group : groups) {
    for (OutputSymbol *k : newest_first) {
      std::string name = bank_prefix(group.front()) + "." + std::string(k->name);
      if (!find_section(ctx, name) && reaches(k, group.front())) {
        create_callgraph_sections(ctx); // (nvlink has made them by now)
        OutputSection *bank =
            create_section(ctx, name, group.front()->type, group.front()->flags, group.front()->align);
        if (format.function_banks_after_layout) // (layout_memory has set the banks' type)
          bank->type = SHT_PROGBITS;
        if (!optimizer.empty() && name.starts_with(optimizer))
          ctx.out.optimizer_banks.push_back(
              {k, bank, ctx.arena.save(final_prefix(group.front()) + "." + std::string(k->name))});
      }
    }
    // Then the optimizer banks' RELA sections of the kernels the group
    // reaches that have none yet, in the same order.
    if (optimizer.empty())
      continue;
    for (OutputSymbol *k : newest_first) {
      std::string name = bank_prefix(group.front()) + "." + std::string(k->name);
      OutputSection *bank = find_section(ctx, name);
      if (!bank || !name.starts_with(optimizer) || find_section(ctx, ".rela" + name) ||
          !reaches(k, group.front()))
        continue;
      OutputSection *rel = create_section(ctx, ".rela" + name, SHT_RELA, SHF_INFO_LINK, 8, kRelaSize);
      rel->rela = true;
      rel->target = bank;
      ctx.out.optimizer_relas.push_back(rel);
      if (ctx.opts.preserve_relocs) // (recursion's kernel bank)
        resolved_rela_section_for(ctx, bank);
    }
  }
  for (const auto &group : groups) {
    std::string prefix = bank_prefix(group.front());
    std::vector<OutputSection *> targets;
    for (OutputSymbol *k : kernels)
      if (reaches(k, group.front()))
        targets.push_back(find_section(ctx, prefix + "." + std::string(k->name)));
    for (OutputSection *bank : group) {
      if (bank->superseded_copy)
        continue;
      u64 offset = 0;
      for (OutputSection *sec : targets)
        offset = std::max(offset, align_to(sec->size, bank->align));
      bank->base = offset;
      ctx.out.placed_function_banks.emplace_back(bank, targets);
      if (bank->lost_copy) {
        ctx.out.null_symbol_value = offset;
        ctx.out.constant_bank.sets_null_symbol = false;
      }
      for (OutputSection *sec : targets) {
        sec->data.resize(offset, 0);
        sec->data.insert(sec->data.end(), bank->data.begin(), bank->data.end());
        sec->size = sec->data.size();
        sec->align = std::max(sec->align, bank->align);
      }
      // sm_100+: the superseded copies share the kept copy's place (their
      // Mercury relocations and SASS entries go there, §16); sm_75-89 does
      // not copy them.
      // A passed-over copy (one that never held the function) goes to the
      // end of the kept one without taking room; its Mercury relocations
      // that fall outside the kernel's bank vanish (probes a2:c2:b0,
      // b1:a2:b0:c1).
      if (!bank->lost_copy) {
        for (OutputSection *old : group)
          if (old->superseded_copy && !old->passed_over) {
            old->base = offset;
            ctx.out.placed_function_banks.emplace_back(old, targets);
          }
        for (OutputSection *old : group)
          if (old->passed_over) {
            old->base = 0;
            for (OutputSection *sec : targets)
              old->base = std::max(old->base, align_to(sec->size, old->align));
            ctx.out.placed_function_banks.emplace_back(old, targets);
          }
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

constexpr u64 kMaxUserConstant = 0x10000;

namespace {

// An empty kernel shared section that a program-wide placement aligned past
// the dynamic window's 16 is not written, even for a kernel using a dynamic
// array, except where the reserved window counts as content (sm_90/sm_90a;
// measured on sm_75-sm_121 with a 32-aligned namespace variable).
bool empty_overaligned_shared_goes(const Context &ctx, const OutputSection &sec) {
  bool reserved_is_content =
      reserved_shared_bytes(ctx) > 0 && !arch_format(ctx.arch).reserved_window_only_is_empty;
  return sec.align > kDynamicSharedAlign && !reserved_is_content;
}

} // namespace

void layout_memory(Context &ctx) {
  if (!arch_format(ctx.arch).function_banks_after_layout)
    merge_function_banks(ctx);
  layout_shared(ctx);
  layout_dynamic_shared(ctx);
  place_debug_shared_symbols(ctx);
  place_preserved_dynamic_arrays(ctx);
  std::vector<OutputSection *> all = ctx.out.sections;
  all.insert(all.end(), ctx.out.deferred_sections.begin(), ctx.out.deferred_sections.end());
  // The __constant__ variables share one 64 KiB bank (every target;
  // reported after the stack sizes, before the shared-data errors).
  if (u64 size = relayout_constant_bank(ctx); size > kMaxUserConstant)
    ctx.out.late_errors.push_back(fmt::format(
        "File uses too much global constant data (0x{:x} bytes, 0x{:x} max)", size,
        kMaxUserConstant));
  for (OutputSection *sec : all) {
    switch (sec->kind) {
    case SectionKind::Shared:
      if (u64 max = max_static_shared(ctx.arch); sec->size > max) // reported after the stack sizes
        ctx.out.late_errors.push_back(fmt::format("Entry function '{}' uses too much shared data "
                                                  "(0x{:x} bytes, 0x{:x} max)",
                                                  sec->name.substr(11), sec->size, max));
      if (sec->size == 0 && (!(sec->uses_dynamic_shared || sec->uses_namespace_shared) ||
                             empty_overaligned_shared_goes(ctx, *sec)))
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
      // (-g: on every target; sm_75-89 have none.)
      sec->size = arch_format(ctx.arch).debug_shared_after_reserved_window || debug_shared_symbols(ctx)
                      ? reserved_shared_bytes(ctx) + debug_shared_variables_end(ctx)
                      : 0;
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
    if (arch_format(ctx.arch).reserved_window_symbols && sym->name.starts_with(".nv.reservedSmem.")) {
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
