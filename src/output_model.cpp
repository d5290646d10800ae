// Creation of output sections and symbols (output_model.h).
#include "output_model.h"

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
    return false;
  default:
    return true;
  }
}

OutputSection *find_section(Context &ctx, std::string_view name) {
  auto it = ctx.out.section_by_name.find(name);
  return it == ctx.out.section_by_name.end() ? nullptr : it->second;
}

OutputSection *create_section(Context &ctx, std::string_view name, u32 type, u64 flags,
                              u64 align, u64 entsize) {
  OutputModel &out = ctx.out;
  auto *sec = ctx.arena.make<OutputSection>();
  sec->name = ctx.arena.save(name);
  sec->kind = classify_section(name, type);
  sec->type = type;
  sec->flags = flags;
  sec->align = align ? align : 1;
  sec->entsize = entsize;
  sec->create_seq = out.next_seq++;
  out.sections.push_back(sec);
  out.section_by_name.emplace(sec->name, sec);
  out.shstrtab_names.push_back(sec->name);

  if (sec->kind == SectionKind::Constant && name.starts_with(".nv.constant0.")) {
    std::string rel_name = ".rel" + std::string(name);
    OutputSection *rel = create_section(ctx, rel_name, SHT_REL, SHF_INFO_LINK, 8, kRelSize);
    rel->target = sec;
  }
  out.strtab_names.push_back(sec->name);

  auto *sym = ctx.arena.make<OutputSymbol>();
  sym->name = sec->name;
  sym->type = STT_SECTION;
  sym->bind = STB_LOCAL;
  sym->section = sec;
  sym->is_section_symbol = true;
  sym->create_seq = sec->create_seq;
  sec->symbol = sym;
  out.locals.push_back(sym);
  return sec;
}

void create_skeleton(Context &ctx) {
  create_section(ctx, ".shstrtab", SHT_STRTAB, 0, 1);
  create_section(ctx, ".strtab", SHT_STRTAB, 0, 1);
  create_section(ctx, ".symtab", SHT_SYMTAB, 0, 8, kSymSize);
  // nvlink reserves the name of an extended section index table it never
  // writes.
  ctx.out.shstrtab_names.push_back(".symtab_shndx");
  ctx.out.strtab_names.push_back(".symtab_shndx");
  create_section(ctx, ".note.nv.tkinfo", SHT_NOTE, 0x2000000, 4);
  create_section(ctx, ".note.nv.cuinfo", SHT_NOTE, 0x1000000, 4);
  create_section(ctx, ".nv.info", SHT_CUDA_INFO, 0, 4);
  if (ctx.arch.sm >= 90)
    create_section(ctx, ".nv.compat", SHT_CUDA_COMPAT, 0, 4);
}

OutputSymbol *find_global(Context &ctx, std::string_view name) {
  auto it = ctx.out.global_by_name.find(name);
  return it == ctx.out.global_by_name.end() ? nullptr : it->second;
}

OutputSymbol *create_global(Context &ctx, std::string_view name, bool weak_definition) {
  auto *sym = ctx.arena.make<OutputSymbol>();
  sym->name = ctx.arena.save(name);
  sym->bind = STB_GLOBAL;
  sym->create_seq = ctx.out.next_seq++;
  if (weak_definition) {
    sym->bind = STB_WEAK;
    sym->in_local_array = true;
    ctx.out.locals.push_back(sym);
    ctx.out.strtab_names.push_back(sym->name);
  } else {
    ctx.out.globals.push_back(sym);
  }
  ctx.out.global_by_name.emplace(sym->name, sym);
  return sym;
}

OutputSymbol *create_local(Context &ctx, std::string_view name) {
  auto *sym = ctx.arena.make<OutputSymbol>();
  sym->name = ctx.arena.save(name);
  sym->bind = STB_LOCAL;
  sym->create_seq = ctx.out.next_seq++;
  ctx.out.locals.push_back(sym);
  ctx.out.strtab_names.push_back(sym->name);
  return sym;
}

OutputSection *reloc_section_for(Context &ctx, OutputSection *target, bool rela) {
  std::string name = std::string(rela ? ".rela" : ".rel") + std::string(target->name);
  if (OutputSection *sec = find_section(ctx, name))
    return sec;
  OutputSection *sec = create_section(ctx, name, rela ? SHT_RELA : SHT_REL, SHF_INFO_LINK, 8,
                                      rela ? kRelaSize : kRelSize);
  sec->rela = rela;
  sec->target = target;
  return sec;
}

} // namespace dlink
