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
  std::multimap<const OutputSymbol *, const OutputSymbol *> callees;
  for (auto &[caller, callee] : ctx.out.call_edges)
    if (caller && callee)
      callees.emplace(caller, callee);
  for (OutputSection *shared : ctx.out.sections) {
    if (shared->kind != SectionKind::Shared)
      continue;
    const OutputSymbol *kernel = find_global(ctx, shared->name.substr(11));
    if (!kernel)
      continue;
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
    bool uses = std::any_of(reached.begin(), reached.end(),
                            [&](const OutputSymbol *f) { return users.count(f) > 0; });
    if (!uses)
      continue;
    shared->uses_dynamic_shared = true;
    shared->align = std::max(shared->align, kDynamicSharedAlign);
    u64 start = align_to(shared->size, kDynamicSharedAlign);
    for (const OutputSymbol *f : reached) {
      u64 &off = ctx.out.dynamic_shared_offset[f];
      off = std::max(off, start);
    }
  }
}

// Device functions' own constant banks (sm_75-89 OCG constants) are copied
// into the same-numbered bank of every kernel that reaches the function, at
// one offset that suits all of them.
void merge_function_banks(Context &ctx) {
  std::multimap<const OutputSymbol *, const OutputSymbol *> callees;
  for (auto &[caller, callee] : ctx.out.call_edges)
    if (caller && callee)
      callees.emplace(caller, callee);
  std::vector<OutputSymbol *> kernels;
  for (OutputSymbol *sym : ctx.out.locals)
    if (sym->in_local_array && sym->is_entry() && sym->defined())
      kernels.push_back(sym);
  for (OutputSymbol *sym : ctx.out.globals)
    if (sym->is_entry() && sym->defined() && !sym->removed)
      kernels.push_back(sym);
  auto reaches = [&](const OutputSymbol *kernel, std::string_view fn) {
    std::set<const OutputSymbol *> seen{kernel};
    std::vector<const OutputSymbol *> work{kernel};
    while (!work.empty()) {
      const OutputSymbol *f = work.back();
      work.pop_back();
      if (f->name == fn)
        return true;
      auto range = callees.equal_range(f);
      for (auto it = range.first; it != range.second; ++it)
        if (seen.insert(it->second).second)
          work.push_back(it->second);
    }
    return false;
  };
  for (OutputSection *bank : ctx.out.function_banks) {
    std::string prefix(bank->name.substr(0, bank->name.find('.', 12)));
    std::vector<OutputSection *> targets;
    u64 offset = 0;
    for (OutputSymbol *k : kernels) {
      if (!reaches(k, bank->bank_function))
        continue;
      std::string name = prefix + "." + std::string(k->name);
      OutputSection *sec = find_section(ctx, name);
      if (!sec)
        sec = create_section(ctx, name, bank->type, bank->flags, bank->align);
      targets.push_back(sec);
      offset = std::max(offset, align_to(sec->size, bank->align));
    }
    bank->base = offset;
    for (OutputSection *sec : targets) {
      sec->data.resize(offset, 0);
      sec->data.insert(sec->data.end(), bank->data.begin(), bank->data.end());
      sec->size = sec->data.size();
      sec->align = std::max(sec->align, bank->align);
    }
  }
}

void layout_memory(Context &ctx) {
  merge_function_banks(ctx);
  for (OutputSection *sec : ctx.out.sections)
    if (sec->kind == SectionKind::Shared)
      place_shared_variables(sec);
  layout_dynamic_shared(ctx);
  std::vector<OutputSection *> all = ctx.out.sections;
  all.insert(all.end(), ctx.out.deferred_sections.begin(), ctx.out.deferred_sections.end());
  for (OutputSection *sec : all) {
    switch (sec->kind) {
    case SectionKind::Shared:
      if (sec->size == 0 && !sec->uses_dynamic_shared)
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
      // sm_100+: the dynamic shared window starts after the reserved prefix.
      if (ctx.arch.is_mercury())
        sec->size = reserved_shared_bytes(ctx);
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
