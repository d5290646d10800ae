// Creation of output sections and symbols (output_model.h).
#include "output_model.h"

#include "arch_format.h"
#include "relocatable.h"

namespace dlink {

SectionKind classify_section(std::string_view name, u32 type) {
  if (type == SHT_REL || type == SHT_RELA)
    return SectionKind::Reloc;
  if (type == SHT_STRTAB)
    return SectionKind::StringTable;
  if (type == SHT_SYMTAB)
    return SectionKind::SymbolTable;
  if (type == SHT_NOTE)
    return SectionKind::Note;
  if (name.starts_with(".text."))
    return SectionKind::Text;
  if (name == ".nv.info")
    return SectionKind::ModuleInfo;
  if (name.starts_with(".nv.info."))
    return SectionKind::FunctionInfo;
  if (name == ".nv.compat")
    return SectionKind::Compat;
  if (name.starts_with(".nv.constant"))
    return SectionKind::Constant;
  if (name == ".nv.global.init")
    return SectionKind::GlobalInit;
  if (name == ".nv.global")
    return SectionKind::Global;
  if (type == SHT_CUDA_SHARED_RESERVED || name.starts_with(".nv.shared.reserved."))
    return SectionKind::SharedReserved;
  if (name.starts_with(".nv.shared."))
    return SectionKind::Shared;
  if (name == ".nv.callgraph")
    return SectionKind::Callgraph;
  if (name == ".nv.prototype")
    return SectionKind::Prototype;
  if (name == ".nv.rel.action")
    return SectionKind::RelAction;
  if (name == ".nv_debug.shared")
    return SectionKind::DebugShared;
  if (name.starts_with(".debug_") || name.starts_with(".nv_debug"))
    return SectionKind::Debug;
  return SectionKind::Other;
}

bool kind_has_section_symbol(SectionKind kind) {
  switch (kind) {
  case SectionKind::Reloc:
  case SectionKind::StringTable:
  case SectionKind::SymbolTable:
  case SectionKind::ModuleInfo:
  case SectionKind::FunctionInfo:
  case SectionKind::Compat:
  case SectionKind::DebugShared:
  case SectionKind::Mercury:
    return false;
  default:
    return true;
  }
}

OutputSection *find_section(Context &ctx, std::string_view name) {
  return find_section(ctx, name, NameHash{}(name));
}

OutputSection *find_section(Context &ctx, std::string_view name, size_t hash) {
  if (OutputSection **sec = ctx.out.section_by_name.find(name, hash))
    return *sec;
  if (ctx.out.deferred_by_name.empty())
    return nullptr;
  auto d = ctx.out.deferred_by_name.find(name);
  return d == ctx.out.deferred_by_name.end() ? nullptr : d->second;
}

OutputSection *new_section(Context &ctx, std::string_view name, u32 type, u64 flags, u64 align,
                           u64 entsize) {
  auto *sec = ctx.arena.make<OutputSection>();
  sec->name = ctx.arena.save(name);
  sec->kind = classify_section(name, type);
  sec->type = type;
  sec->flags = flags;
  sec->align = align ? align : 1;
  sec->entsize = entsize;
  auto *sym = ctx.arena.make<OutputSymbol>();
  sym->name = sec->name;
  sym->type = STT_SECTION;
  sym->bind = STB_LOCAL;
  sym->section = sec;
  sym->is_section_symbol = true;
  sec->symbol = sym;
  return sec;
}

void add_strtab_name(Context &ctx, std::string_view name) {
  (ctx.out.closed ? ctx.out.strtab_late_names : ctx.out.strtab_names).push_back(name);
}

void add_local_symbol(Context &ctx, OutputSymbol *sym) {
  (ctx.out.closed ? ctx.out.late_locals : ctx.out.locals).push_back(sym);
}

void forget_symbol(Context &ctx, OutputSymbol *sym) {
  sym->removed = true;
  OutputModel &out = ctx.out;
  std::erase(out.globals, sym);
  if (std::erase(out.locals, sym) + std::erase(out.late_locals, sym)) {
    // (create_local added the name itself, the arena copy: found by address)
    auto same = [&](std::string_view n) { return n.data() == sym->name.data(); };
    std::erase_if(out.strtab_names, same);
    std::erase_if(out.strtab_late_names, same);
  }
}

void add_section_symbol(Context &ctx, OutputSection *sec) {
  add_strtab_name(ctx, sec->name);
  add_local_symbol(ctx, sec->symbol);
}

void register_section(Context &ctx, OutputSection *sec, bool with_symbol) {
  register_section(ctx, sec, with_symbol, NameHash{}(sec->name));
}

void register_section(Context &ctx, OutputSection *sec, bool with_symbol, size_t hash) {
  OutputModel &out = ctx.out;
  sec->create_seq = out.next_seq++;
  sec->late = out.closed;
  sec->symbol->create_seq = sec->create_seq;
  out.sections.push_back(sec);
  out.section_by_name.try_emplace(sec->name, hash, sec);
  if (!out.deferred_by_name.empty())
    out.deferred_by_name.erase(sec->name);
  out.shstrtab_names.push_back({sec->name, 0});

  // Creating a kernel's parameter bank creates its .rel companion first
  // (sm_75-90; on sm_100 and newer the banks are created at the end, alone).
  if (sec->kind == SectionKind::Constant && sec->name.starts_with(".nv.constant0.") &&
      !arch_format(ctx.arch).late_parameter_banks && !relocatable_output(ctx)) {
    std::string rel_name = ".rel" + std::string(sec->name);
    OutputSection *rel = create_section(ctx, rel_name, SHT_REL, SHF_INFO_LINK, 8, kRelSize);
    rel->target = sec;
  }
  if (with_symbol)
    add_section_symbol(ctx, sec);
}

OutputSection *create_section(Context &ctx, std::string_view name, u32 type, u64 flags,
                              u64 align, u64 entsize) {
  OutputSection *sec = new_section(ctx, name, type, flags, align, entsize);
  register_section(ctx, sec);
  return sec;
}

OutputSection *create_section(Context &ctx, std::string_view name, size_t hash, u32 type, u64 flags,
                              u64 align, u64 entsize) {
  OutputSection *sec = new_section(ctx, name, type, flags, align, entsize);
  register_section(ctx, sec, true, hash);
  return sec;
}

void create_callgraph_sections(Context &ctx) {
  if (!find_section(ctx, ".nv.callgraph"))
    create_section(ctx, ".nv.callgraph", SHT_CUDA_CALLGRAPH, 0, 4, 8);
  if (!find_section(ctx, ".nv.prototype"))
    create_section(ctx, ".nv.prototype", SHT_CUDA_PROTOTYPE, 0, 4, 8);
}

void rename_section(Context &ctx, OutputSection *sec, std::string_view new_name,
                    bool strtab_name) {
  OutputModel &out = ctx.out;
  out.section_by_name.erase(sec->name);
  std::string_view old = sec->name;
  sec->renamed_from = old;
  sec->name = ctx.arena.save(new_name);
  sec->symbol->name = sec->name;
  out.section_by_name.emplace(sec->name, sec);
  // .shstrtab is rewritten in place: the shorter name leaves NUL padding.
  for (auto &entry : out.shstrtab_names)
    if (entry.name == old) {
      entry.pad = static_cast<u32>(old.size() > new_name.size() ? old.size() - new_name.size() : 0);
      entry.name = sec->name;
    }
  if (strtab_name)
    add_strtab_name(ctx, sec->name);
  // sm_100+: each in-place rename leaves len(old) - (len(new) + 1) zero bytes
  // after .strtab (a renamed section whose new name gets no .strtab string
  // leaves len(old)).
  const bool slack = arch_format(ctx.arch).rename_leaves_strtab_slack;
  if (slack && !strtab_name)
    out.strtab_slack += old.size();
  else if (slack && old.size() > new_name.size() + 1)
    out.strtab_slack += old.size() - new_name.size() - 1;
}

void create_skeleton(Context &ctx) {
  create_section(ctx, ".shstrtab", SHT_STRTAB, 0, 1);
  create_section(ctx, ".strtab", SHT_STRTAB, 0, 1);
  create_section(ctx, ".symtab", SHT_SYMTAB, 0, 8, kSymSize);
  // nvlink reserves the name of an extended section index table it never
  // writes.
  ctx.out.shstrtab_names.push_back({".symtab_shndx", 0});
  ctx.out.strtab_names.push_back(".symtab_shndx");
  create_section(ctx, ".note.nv.tkinfo", SHT_NOTE, 0x2000000, 4);
  create_section(ctx, ".note.nv.cuinfo", SHT_NOTE, 0x1000000, 4);
  create_section(ctx, ".nv.info", SHT_CUDA_INFO, 0, 4);
  if (ctx.arch.sm >= 90)
    create_section(ctx, ".nv.compat", SHT_CUDA_COMPAT, 0, 4);
}

OutputSymbol *find_global(Context &ctx, std::string_view name) {
  OutputSymbol **sym = ctx.out.global_by_name.find(name);
  return sym ? *sym : nullptr;
}

OutputSymbol *find_global(Context &ctx, std::string_view name, size_t hash) {
  OutputSymbol **sym = ctx.out.global_by_name.find(name, hash);
  return sym ? *sym : nullptr;
}

OutputSymbol *create_global(Context &ctx, std::string_view name, bool weak_definition) {
  return create_global(ctx, name, weak_definition, NameHash{}(name));
}

OutputSymbol *create_global(Context &ctx, std::string_view name, bool weak_definition, size_t hash) {
  auto *sym = ctx.arena.make<OutputSymbol>();
  sym->name = ctx.arena.save(name);
  sym->bind = STB_GLOBAL;
  sym->create_seq = ctx.out.next_seq++;
  if (weak_definition) {
    sym->bind = STB_WEAK;
    sym->in_local_array = true;
    add_local_symbol(ctx, sym);
    add_strtab_name(ctx, sym->name);
  } else {
    ctx.out.globals.push_back(sym);
  }
  ctx.out.global_by_name.try_emplace(sym->name, hash, sym);
  return sym;
}

InfoRecord to_output_record(const EiRecord &r,
                            const std::function<OutputSymbol *(u32)> &symbol_of) {
  InfoRecord out;
  out.format = r.format;
  out.attr = r.attr;
  out.value = r.value;
  out.payload.assign(r.payload.begin(), r.payload.end());
  switch (eiattr_symbols(r.attr)) { // (eiattr.def)
  case EiSymbols::First:
    if (r.format == EIFMT_SVAL && r.payload.size() >= 4)
      out.sym = symbol_of(r.payload_u32(0));
    break;
  case EiSymbols::All:
    for (size_t k = 0; k + 4 <= r.payload.size(); k += 4)
      out.syms.push_back(symbol_of(read_le<u32>(r.payload.data() + k)));
    break;
  case EiSymbols::None:
    break;
  }
  return out;
}

OutputSymbol *create_local(Context &ctx, std::string_view name) {
  auto *sym = ctx.arena.make<OutputSymbol>();
  sym->name = ctx.arena.save(name);
  sym->bind = STB_LOCAL;
  sym->create_seq = ctx.out.next_seq++;
  add_local_symbol(ctx, sym);
  add_strtab_name(ctx, sym->name);
  return sym;
}

OutputSection *reloc_section_for(Context &ctx, OutputSection *target, bool rela) {
  // (The name built in a buffer kept between calls: no allocation per
  // relocation section.)
  thread_local std::string buffer;
  buffer.assign(rela ? ".rela" : ".rel");
  buffer.append(target->name);
  std::string_view name = buffer;
  if (OutputSection *sec = find_section(ctx, name)) {
    if (sec->target == target || !sec->target)
      return sec;
    // Local functions of several inputs may share a name: the first
    // relocation section made for this target, if any. (Every relocation
    // section gets its target, kind and flags where it is made, before the
    // next call here, and keeps them.)
    OutputModel &out = ctx.out;
    for (; out.reloc_index_end < out.sections.size(); out.reloc_index_end++) {
      OutputSection *other = out.sections[out.reloc_index_end];
      if (other->target && other->kind == SectionKind::Reloc && !other->resolved_rela)
        out.reloc_by_target.try_emplace(reinterpret_cast<uintptr_t>(other->target) | (other->rela ? 1 : 0),
                                        other);
    }
    if (auto it = out.reloc_by_target.find(reinterpret_cast<uintptr_t>(target) | (rela ? 1 : 0));
        it != out.reloc_by_target.end())
      return it->second;
  }
  OutputSection *sec = create_section(ctx, name, rela ? SHT_RELA : SHT_REL, SHF_INFO_LINK, 8,
                                      rela ? kRelaSize : kRelSize);
  sec->rela = rela;
  sec->target = target;
  return sec;
}

OutputSection *resolved_rela_section_for(Context &ctx, OutputSection *target) {
  std::string name = ".nv.resolvedrela" + std::string(target->name);
  // nvlink finds the section by name: targets of one name (local functions
  // of several inputs) share the first one's list (measured:
  // static_helper_const_ptx with --preserve-relocs).
  if (!target->resolved)
    if (OutputSection *shared = find_section(ctx, name); shared && shared->resolved_rela)
      target->resolved = shared;
  if (!target->resolved) {
    OutputSection *sec = create_section(ctx, name, SHT_CUDA_RESOLVED_RELA, SHF_INFO_LINK, 8, kRelaSize);
    sec->kind = SectionKind::Reloc;
    sec->rela = true;
    sec->resolved_rela = true;
    sec->target = target;
    target->resolved = sec;
  }
  return target->resolved;
}

using EdgeVisitor = std::function<void(const OutputSymbol *caller, const OutputSymbol *callee)>;

// The direct call edges that survived the merge, in merge order.
static void for_each_direct_call_edge(const Context &ctx, const EdgeVisitor &visit) {
  const OutputModel &out = ctx.out;
  for (size_t i = 0; i < out.call_edges.size(); i++) {
    auto [caller, callee] = out.call_edges[i];
    if (caller && callee && !out.dead_call_edges.count(i))
      visit(caller, callee);
  }
}

CalleeMap direct_callees(const Context &ctx) {
  CalleeMap callees;
  for_each_direct_call_edge(ctx, [&](const OutputSymbol *caller, const OutputSymbol *callee) {
    callees.emplace(caller, callee);
  });
  return callees;
}

void for_each_call_edge(const Context &ctx, const EdgeVisitor &visit) {
  const OutputModel &out = ctx.out;
  for_each_direct_call_edge(ctx, visit);
  for (const auto &[caller, proto] : out.indirect_calls)
    if (caller)
      for (const auto &[target, target_proto] : out.address_taken)
        if (target && target_proto == proto)
          visit(caller, target);
}

CalleeMap callees_with_indirect(const Context &ctx) {
  CalleeMap callees;
  for_each_call_edge(ctx, [&](const OutputSymbol *caller, const OutputSymbol *callee) {
    callees.emplace(caller, callee);
  });
  return callees;
}

std::set<const OutputSymbol *> reached_from(const OutputSymbol *root, const CalleeMap &callees) {
  std::set<const OutputSymbol *> reached{root};
  std::vector<const OutputSymbol *> work{root};
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

} // namespace dlink
