// The ELF headers of the output (sections.h): file header, section headers,
// offsets and program headers.
#include "output/sections.h"
#include "arch_format.h"

#include "output/target_hooks.h"
#include "output_model.h"
#include "relocatable.h"

#include <algorithm>

namespace dlink {

void build_file_header(Context &ctx, const OutputLayout &layout) {
  ElfFile &elf = ctx.output_elf;
  const ElfFile &first = ctx.inputs.empty() ? elf : ctx.inputs.front()->elf;
  elf.ident = first.ident;
  if (ctx.inputs.empty()) {
    elf.ident = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x41, 8};
  }
  elf.type = relocatable_output(ctx) ? ET_REL : ET_EXEC; // (-r: relocatable.h)
  elf.machine = EM_CUDA;
  elf.version = 1;
  // (-r on sm_100+: no program header size either; sm_75-90a keep it.)
  elf.phentsize = relocatable_output(ctx) && arch_format(ctx.arch).relocatable_without_phentsize ? 0 : kPhdrSize;
  elf.shstrndx = 1;
  u32 cuinfo_index = 0;
  for (const OutputSection *sec : layout.order)
    if (sec->name == ".note.nv.cuinfo")
      cuinfo_index = sec->index;
  // (The top byte holds at most 0xff: nvlink writes 0xff for a .note.nv.cuinfo
  // at index 255 or later, e.g. index 277 in a link of 700 -lineinfo TUs,
  // whose .nv_debug_ptx_txt.<hash> sections come before it.)
  elf.flags = (std::min<u32>(cuinfo_index, 0xff) << 24) | (ctx.arch.sm << 8) | arch_format(ctx.arch).elf_flags_low;
}

namespace {

// What every header refers to.
struct HeaderIndices {
  u32 tkinfo = 0, compat = 0, symtab = 0, strtab = 0;
};

// One section's header. Reads only (the layout, the section and the name
// tables), so the headers of the sections are made at once, but for those
// `serial_header` names.
ElfSection section_header(Context &ctx, const OutputLayout &layout, const HeaderIndices &ix, OutputSection *sec) {
  const OutputHooks &hooks = output_hooks(ctx);
  ElfSection e;
  e.name = sec->name;
  auto own = layout.own_name_offset.find(sec);
  e.name_offset = own != layout.own_name_offset.end() ? own->second : layout.shstrtab.offset_of(sec->name);
  e.type = sec->type;
  e.flags = sec->flags;
  e.addralign = sec->align;
  e.entsize = sec->entsize;
  if (hooks.owns_section(ctx, sec))
    hooks.section_header(ctx, layout, sec, e);
  else
  switch (sec->kind) {
  case SectionKind::SymbolTable:
    e.link = ix.strtab;
    e.info = static_cast<u32>(layout.num_locals);
    break;
  case SectionKind::Text:
    e.link = ix.symtab;
    e.info = (sec->func ? sec->func->index : 0) | sec->info_high;
    break;
  case SectionKind::ModuleInfo:
  case SectionKind::Callgraph:
  case SectionKind::Prototype:
    e.link = ix.symtab;
    break;
  case SectionKind::FunctionInfo: {
    e.link = ix.symtab;
    OutputSection *text = sec->func && sec->func->section ? sec->func->section
                                                           : find_section(ctx, ".text." + std::string(sec->name.substr(9)));
    e.info = text ? layout.referenced_index(text) : 0;
    break;
  }
  case SectionKind::Reloc:
    e.link = ix.symtab;
    e.info = sec->target ? layout.referenced_index(sec->target) : 0;
    break;
  case SectionKind::Constant:
  case SectionKind::Shared: {
    // Per-kernel sections (".nv.shared.<k>", ".nv.constant<N>.<k>") point
    // at the kernel's code.
    size_t dot = sec->kind == SectionKind::Shared ? 10 : sec->name.find('.', 12);
    if (dot != std::string_view::npos) {
      OutputSection *text = find_section(ctx, ".text." + std::string(sec->name.substr(dot + 1)));
      e.info = text ? layout.referenced_index(text) : 0;
    }
    break;
  }
  case SectionKind::Note:
    if (sec->name == ".note.nv.cuinfo") {
      e.link = ix.tkinfo;
      if (ix.compat) {
        e.info = ix.compat;
        e.flags |= SHF_INFO_LINK;
      }
    }
    break;
  default:
    // (-r: a unified function's stub names its symbol like code; the
    // entry tables' symbols are written now that they have indices.)
    if (sec->type == SHT_CUDA_UFT) {
      e.link = ix.symtab;
      e.info = sec->func ? sec->func->index : 0;
    } else if (sec->type == SHT_CUDA_UFT_ENTRY || sec->type == SHT_CUDA_UDT_ENTRY) {
      e.link = ix.symtab;
      write_unified_entries(ctx, *sec);
    }
    break;
  }
  if (sec->has_file_data())
    sec->size = sec->data.size();
  e.size = sec->size;
  if (sec->has_file_data())
    e.data = sec->data;
  return e;
}

// Sections whose header is made on the calling thread: the target's own
// (sm_100+) and the unified entry tables, whose contents are written then.
bool serial_header(const Context &ctx, const OutputSection *sec) {
  return output_hooks(ctx).owns_section(ctx, sec) || sec->type == SHT_CUDA_UFT_ENTRY ||
         sec->type == SHT_CUDA_UDT_ENTRY;
}

} // namespace

void build_section_headers(Context &ctx, const OutputLayout &layout) {
  ElfFile &elf = ctx.output_elf;
  HeaderIndices ix;
  for (const OutputSection *sec : layout.order) {
    if (sec->name == ".note.nv.tkinfo")
      ix.tkinfo = sec->index;
    if (sec->kind == SectionKind::Compat)
      ix.compat = sec->index;
    if (sec->kind == SectionKind::SymbolTable)
      ix.symtab = sec->index;
  }
  ix.strtab = layout.index_of(".strtab");
  std::vector<ElfSection> headers(layout.order.size());
  ctx.par.for_each_index(layout.order.size(), [&](size_t pos) {
    if (!serial_header(ctx, layout.order[pos]))
      headers[pos] = section_header(ctx, layout, ix, layout.order[pos]);
  }, 256);
  elf.sections.reserve(layout.order.size() + 3); // (+ the null section and up to two index tables)
  elf.sections.assign(1, ElfSection{});
  const OutputHooks &hooks = output_hooks(ctx);
  for (size_t pos = 0; pos < layout.order.size(); pos++) {
    if (serial_header(ctx, layout.order[pos]))
      headers[pos] = section_header(ctx, layout, ix, layout.order[pos]);
    elf.sections.push_back(std::move(headers[pos]));
    if (layout.extended && pos == layout.shndx_after)
      elf.sections.push_back(
          section_index_table(ctx, ".symtab_shndx", layout.shndx_name, ix.symtab, 0, layout.xindex));
    if (layout.family_shndx && pos == layout.family_shndx_after)
      elf.sections.push_back(hooks.index_table(ctx, layout));
  }
  if (elf.sections.size() > SHN_LORESERVE)
    elf.sections[0].size = elf.sections.size(); // (e_shnum 0: src/elf/elf.cpp)
  output_hooks(ctx).set_file_slack(ctx, layout, elf);
}

ElfSection section_index_table(Context &ctx, std::string_view name, u32 name_offset, u32 symtab_index,
                               u64 flags, const std::vector<u32> &entries) {
  ElfSection x;
  x.name = name;
  x.name_offset = name_offset;
  x.type = SHT_SYMTAB_SHNDX;
  x.flags = flags;
  x.link = symtab_index;
  x.addralign = 4;
  x.entsize = 4;
  std::span<u8> bytes = ctx.arena.alloc(entries.size() * 4);
  for (size_t i = 0; i < entries.size(); i++)
    write_le<u32>(bytes.data() + 4 * i, entries[i]);
  x.size = bytes.size();
  x.data = bytes;
  return x;
}

namespace {

// Program headers. All addresses are 0; the segments only group sections.
//   sm_75-90:  PHDR (R X) | LOAD R X: constant banks and code |
//              LOAD R W: initialised data, then NOBITS data (if any) |
//              LOAD R X: the program header table again
//   sm_100+:   PHDR (R) | LOAD R: the table | LOAD R: constant banks |
//              LOAD R X: code | LOAD R W: data | LOAD R: the parameter banks
//              created after the merge
// The data segment's memory size is its sections laid out one after the
// other at their alignment; its file size ends where the first NOBITS
// section would start.
struct SegmentBuilder {
  ElfFile &elf;
  ElfProgramHeader seg{};
  bool used = false;
  u64 end = 0;

  void add(const ElfSection &e) {
    if (!used) {
      seg.offset = e.offset;
      used = true;
    }
    end = std::max(end, e.offset + e.size);
    seg.filesz = seg.memsz = end - seg.offset;
  }
};

} // namespace

void build_program_headers(const Context &ctx, ElfFile &elf, const std::vector<OutputSection *> &order) {
  bool sm100 = (elf.flags & 0xff) == 0x02; // (the sm_100+ segment layout)
  elf.segments.clear();
  assign_offsets(elf, OffsetStyle::Linker, output_hooks(ctx).shared_offset_rule()); // section offsets do not depend on the segments
  auto load = [](u32 flags) {
    ElfProgramHeader p;
    p.type = PT_LOAD;
    p.flags = flags;
    p.align = 8;
    return p;
  };
  SegmentBuilder banks{elf}, code{elf}, late_banks{elf};
  banks.seg = load(PF_R);
  code.seg = load(PF_R | PF_X);
  late_banks.seg = load(PF_R);
  ElfProgramHeader data = load(PF_R | PF_W);
  bool have_data = false;
  std::vector<const OutputSection *> data_nobits;
  const OutputHooks &hooks = output_hooks(ctx);
  for (const OutputSection *sec : order) {
    if (hooks.owns_section(ctx, sec)) // (the sm_100+ copies take no part)
      continue;
    const ElfSection &e = elf.sections[sec->index];
    if (sec->kind == SectionKind::Constant) {
      if (!sm100)
        code.add(e);
      else
        (sec->late ? late_banks : banks).add(e);
    } else if (sec->kind == SectionKind::Text) {
      code.add(e);
    } else if (sec->kind == SectionKind::GlobalInit || sec->kind == SectionKind::Shared ||
               sec->kind == SectionKind::Global || sec->kind == SectionKind::SharedReserved ||
               sec->kind == SectionKind::DebugShared) {
      if (!have_data)
        data.offset = e.offset;
      have_data = true;
      // The file image runs to the furthest file position any data section
      // reaches: the end of an initialized section, or the offset at which a
      // NOBITS section starts (NOBITS .nv.global advances the file offset).
      bool progbits = sec->kind == SectionKind::GlobalInit;
      data.filesz = std::max(data.filesz, e.offset + (progbits ? e.size : 0) - data.offset);
      if (!progbits)
        data_nobits.push_back(sec);
    }
  }
  // The memory image is the file image followed by every NOBITS section, each
  // at its own alignment.
  data.memsz = data.filesz;
  for (const OutputSection *sec : data_nobits) {
    data.memsz = align_to(data.offset + data.memsz, sec->align) - data.offset; // aligned in the file's frame
    data.memsz += elf.sections[sec->index].size;
  }

  std::vector<ElfProgramHeader> segs;
  ElfProgramHeader table;
  table.type = PT_PHDR;
  table.flags = sm100 ? PF_R : PF_R | PF_X;
  table.align = 8;
  segs.push_back(table);
  if (sm100) {
    segs.push_back(load(PF_R)); // the table
    if (banks.used)
      segs.push_back(banks.seg);
    if (code.used)
      segs.push_back(code.seg);
    if (have_data)
      segs.push_back(data);
    if (late_banks.used)
      segs.push_back(late_banks.seg);
  } else {
    if (code.used)
      segs.push_back(code.seg);
    if (have_data)
      segs.push_back(data);
    segs.push_back(load(PF_R | PF_X)); // the table again
  }
  std::vector<size_t> table_segments{0};
  table_segments.push_back(sm100 ? 1 : segs.size() - 1);
  elf.segments = segs;
  assign_offsets(elf, OffsetStyle::Linker, output_hooks(ctx).shared_offset_rule());
  u64 size = elf.segments.size() * kPhdrSize;
  for (size_t i : table_segments) {
    elf.segments[i].offset = elf.phoff;
    elf.segments[i].filesz = elf.segments[i].memsz = size;
  }
}

} // namespace dlink
