// Stage 6: serialization (writer.h).
//
// Consumes the finished output model; produces the bytes of the cubin.
// Section header order is by group, and within a group by creation order:
//   .shstrtab .strtab .symtab | debug sections | .note.nv.tkinfo
//   .note.nv.cuinfo | .nv.info .nv.compat | .nv.info.<f>... | .nv.callgraph
//   .nv.prototype .nv.rel.action | relocation sections | constant banks |
//   .text.<f>... | .nv.global.init | .nv.shared.<k> and .nv.global (NOBITS)
// The symbol table lists the null symbol, the section symbols of surviving
// sections in creation order, then the global symbols in creation order.
// .strtab holds, in this order: the prototype strings, every section name
// ever created, every global symbol name ever created; .shstrtab every
// section name ever created. Neither is compacted.
#include "writer.h"

#include "layout.h"
#include "output_model.h"
#include "relocatable.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include <cerrno>
#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>
#include <unordered_map>
#include <unordered_set>

namespace dlink {

namespace {

constexpr u32 kCudaToolkitVersion = 130; // 13.0

// The architecture .note.nv.cuinfo names: the lowest of the target and of
// the inputs' own cuinfo notes (an input from PTX written for an older
// .target carries that target).
u32 cuinfo_sm(const Context &ctx) {
  u32 sm = ctx.arch.sm;
  for (const auto &in : ctx.inputs) {
    const ElfSection *note = in->elf.section_named(".note.nv.cuinfo");
    if (!note || note->type != SHT_NOTE || note->data.size() < 12)
      continue;
    const u8 *d = note->data.data();
    u32 namesz = read_le<u32>(d), descsz = read_le<u32>(d + 4);
    u64 desc = 12 + align_to(namesz, 4);
    if (descsz < 4 || desc + 4 > note->data.size() || read_le<u16>(d + desc) != 2)
      continue;
    sm = std::min<u32>(sm, read_le<u16>(d + desc + 2));
  }
  return sm;
}
// nvlink leaves this many unaccounted zero bytes after .shstrtab on sm_100+.
constexpr u64 kMercuryShstrtabSlack = 36;
constexpr std::array<u8, 16> kRelAction = {0x73, 0, 0, 0, 0, 0, 0, 0,
                                           0, 0, 0, 0x11, 0x25, 0, 0x05, 0x36};

class StringTable {
public:
  // `names`: about how many names will be added (sizes the lookup table).
  explicit StringTable(size_t names) {
    bytes_.push_back(0);
    size_t capacity = 16;
    while (capacity < 2 * names)
      capacity *= 2;
    slots_.resize(capacity);
  }
  u32 add(std::string_view s, u32 pad = 0, bool again = false) {
    if (s.empty())
      return 0;
    Slot &slot = find(s);
    if (slot.used && !again)
      return slot.offset;
    u32 off = static_cast<u32>(bytes_.size());
    bytes_.insert(bytes_.end(), s.begin(), s.end());
    bytes_.push_back(0);
    bytes_.insert(bytes_.end(), pad, 0);
    if (!slot.used) { // (a name stored again keeps its first offset)
      slot = {s, off, true};
      if (++used_ * 2 > slots_.size())
        grow();
    }
    return off;
  }
  // An empty string stored as its own entry (a lone NUL byte).
  void add_empty() {
    if (empty_offset_ == 0) {
      empty_offset_ = static_cast<u32>(bytes_.size());
      bytes_.push_back(0);
    }
  }
  u32 empty_offset() const { return empty_offset_; }
  u32 offset_of(std::string_view s) const {
    if (s.empty())
      return 0;
    const Slot &slot = const_cast<StringTable *>(this)->find(s);
    return slot.used ? slot.offset : 0;
  }
  const std::vector<u8> &bytes() const { return bytes_; }

private:
  // An open-addressing table (linear probing, at most half full): one
  // probe into a flat array per lookup, no node per name.
  struct Slot {
    std::string_view name;
    u32 offset = 0;
    bool used = false;
  };

  Slot &find(std::string_view s) {
    size_t mask = slots_.size() - 1;
    for (size_t i = std::hash<std::string_view>{}(s) & mask;; i = (i + 1) & mask)
      if (!slots_[i].used || slots_[i].name == s)
        return slots_[i];
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    for (const Slot &slot : old)
      if (slot.used)
        find(slot.name) = slot;
  }

  std::vector<u8> bytes_;
  std::vector<Slot> slots_;
  size_t used_ = 0;
  u32 empty_offset_ = 0;
};

int group_of(const OutputSection *sec) {
  switch (sec->kind) {
  case SectionKind::StringTable:
  case SectionKind::SymbolTable:
    return 0;
  case SectionKind::Debug:
    return 1;
  case SectionKind::Note:
    return 2;
  case SectionKind::ModuleInfo:
  case SectionKind::Compat:
    return 3;
  case SectionKind::FunctionInfo:
    return 4;
  case SectionKind::Callgraph:
  case SectionKind::Prototype:
  case SectionKind::RelAction:
    return 5;
  case SectionKind::Reloc:
    return 6;
  case SectionKind::Constant:
    return 7;
  case SectionKind::Text:
    return 8;
  case SectionKind::GlobalInit:
    return 9;
  case SectionKind::Shared:
  case SectionKind::Global:
  case SectionKind::DebugShared:
  case SectionKind::SharedReserved:
    return 10;
  default:
    return 11;
  }
}

void append_note(std::vector<u8> &out, u32 type, std::span<const u8> desc) {
  constexpr std::string_view name("NVIDIA Corp\0", 12);
  u8 hdr[12];
  write_le<u32>(hdr, 12);
  write_le<u32>(hdr + 4, static_cast<u32>(desc.size()));
  write_le<u32>(hdr + 8, type);
  out.insert(out.end(), hdr, hdr + 12);
  out.insert(out.end(), name.begin(), name.end());
  out.insert(out.end(), desc.begin(), desc.end());
  while (out.size() % 4)
    out.push_back(0);
}

std::vector<u8> tkinfo_desc(const Context &ctx) {
  std::vector<std::string_view> strings = {ctx.opts.tkinfo_object_name, ctx.opts.program_name,
                                           kNvlinkReleaseLine, kNvlinkBuildLine,
                                           ctx.opts.canonical_command_line};
  std::vector<u8> desc(24, 0);
  write_le<u32>(desc.data(), 2);
  // Each string at the next offset, NUL-terminated: the empty object name
  // (no -g) is the "\0" at offset 0; with -g the basename of -o starts
  // there (measured).
  std::vector<u8> area;
  for (size_t i = 0; i < strings.size(); i++) {
    u32 off = 0;
    if (i == 0 || !strings[i].empty()) {
      off = static_cast<u32>(area.size());
      area.insert(area.end(), strings[i].begin(), strings[i].end());
      area.push_back(0);
    }
    write_le<u32>(desc.data() + 4 + 4 * i, off);
  }
  desc.insert(desc.end(), area.begin(), area.end());
  while (desc.size() % 4)
    desc.push_back(0);
  return desc;
}

void encode_records(OutputSection *sec, bool merc = false) {
  auto index_of = [merc](const OutputSymbol *s) { return merc ? s->merc.index : s->index; };
  std::vector<u8> &d = sec->data;
  d.clear();
  for (const InfoRecord &r : sec->records) {
    d.push_back(r.format);
    d.push_back(r.attr);
    u8 v[2];
    u16 value = r.format == EIFMT_SVAL ? static_cast<u16>(r.payload.size()) : r.value;
    write_le<u16>(v, value);
    d.insert(d.end(), v, v + 2);
    if (r.format != EIFMT_SVAL)
      continue;
    size_t start = d.size();
    d.insert(d.end(), r.payload.begin(), r.payload.end());
    if (r.sym)
      write_le<u32>(d.data() + start, index_of(r.sym));
    if (r.attr == EIATTR_EXTERNS)
      for (size_t k = 0; k < r.syms.size(); k++)
        write_le<u32>(d.data() + start + 4 * k, index_of(r.syms[k]));
  }
  sec->size = d.size();
}


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

void build_program_headers(ElfFile &elf, const std::vector<OutputSection *> &order) {
  bool mercury = (elf.flags & 0xff) == 0x02;
  elf.segments.clear();
  assign_offsets(elf, OffsetStyle::Linker); // section offsets do not depend on the segments
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
  for (const OutputSection *sec : order) {
    if (sec->merc)
      continue;
    const ElfSection &e = elf.sections[sec->index];
    if (sec->kind == SectionKind::Constant) {
      if (!mercury)
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
  table.flags = mercury ? PF_R : PF_R | PF_X;
  table.align = 8;
  segs.push_back(table);
  if (mercury) {
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
  table_segments.push_back(mercury ? 1 : segs.size() - 1);
  elf.segments = segs;
  assign_offsets(elf, OffsetStyle::Linker);
  u64 size = elf.segments.size() * kPhdrSize;
  for (size_t i : table_segments) {
    elf.segments[i].offset = elf.phoff;
    elf.segments[i].filesz = elf.segments[i].memsz = size;
  }
}

} // namespace

void finish_sections(Context &ctx) {
  OutputModel &out = ctx.out;
  create_callgraph_sections(ctx);
  OutputSection *prototype = find_section(ctx, ".nv.prototype");
  if (ctx.arch.sm < 100)
    create_section(ctx, ".nv.rel.action", SHT_CUDA_RELOCINFO, 0, 8, 8);
  // Prototypes are kept only for functions something calls directly (the
  // strings stay in .strtab regardless).
  std::unordered_set<const OutputSymbol *> called;
  for (size_t i = 0; i < out.call_edges.size(); i++)
    if (!out.dead_call_edges.count(i))
      called.insert(out.call_edges[i].second);
  // Address-taken functions are described by the call graph's block 2
  // instead and drop out too.
  // With -g (no function is removed) uncalled functions keep theirs.
  std::erase_if(out.prototypes, [&](const auto &p) {
    return (!ctx.opts.debug && !called.count(p.first)) || out.address_taken_syms.count(p.first);
  });
  // Entries are in the order the output symbols were created (first
  // reference or definition while merging the inputs in link order), not in
  // input order or .symtab order: weak definitions sit in the local array.
  std::stable_sort(out.prototypes.begin(), out.prototypes.end(), [](const auto &x, const auto &y) {
    return (x.first ? x.first->create_seq : 0) < (y.first ? y.first->create_seq : 0);
  });
  if (out.prototypes.empty())
    prototype->removed = true;

  // From here on nvlink's global symbols are fixed; what is created now goes
  // after them (sm_100 and newer).
  out.closed = true;
  // The user bank and its relocation section (a pointer initialiser such as
  // `__constant__ int *cp = &x`) take their sm_75-sm_90 names; the new
  // relocation section name gets no .strtab string (measured, sm_100/sm_120).
  if (OutputSection *user = find_section(ctx, ".nv.constant.user")) {
    rename_section(ctx, user, ".nv.constant3");
    if (OutputSection *rel = find_section(ctx, ".rela.nv.constant.user"))
      rename_section(ctx, rel, ".rela.nv.constant3", false);
  }
  // Banks with texture header-index slots (sm_100+) take their names back;
  // the new relocation section name gets no .strtab string.
  for (const auto &hb : out.header_index_banks) {
    rename_section(ctx, hb.bank, hb.final_name);
    rename_section(ctx, hb.rela, ".rela" + std::string(hb.final_name), false);
  }
  // Optimizer constant banks (sm_100+, §16): the banks, then their RELA
  // sections (whose new names get no .strtab string).
  for (const auto &ob : out.optimizer_banks)
    rename_section(ctx, ob.bank, ob.final_name);
  for (OutputSection *rel : out.optimizer_relas)
    rename_section(ctx, rel, ".rela" + std::string(rel->target->name), false);
  // The kernels' parameter banks (sm_100+) are created in the order of the
  // kernels' code sections.
  auto code_seq = [&](const OutputSection *bank) {
    const OutputSection *text = find_section(ctx, ".text." + std::string(bank->name.substr(14)));
    return text ? text->create_seq : ~0u;
  };
  std::stable_sort(out.deferred_sections.begin(), out.deferred_sections.end(),
                   [&](const OutputSection *a, const OutputSection *b) { return code_seq(a) < code_seq(b); });
  for (OutputSection *sec : out.deferred_sections)
    register_section(ctx, sec);
}

void write_output(Context &ctx) {
  OutputModel &out = ctx.out;
  OutputSection *callgraph = find_section(ctx, ".nv.callgraph");
  OutputSection *prototype = find_section(ctx, ".nv.prototype");
  OutputSection *rel_action = find_section(ctx, ".nv.rel.action");

  // Drop what ends up empty (an empty SASS relocation section stays when
  // its capsule-Mercury twin does not).
  for (OutputSection *sec : out.sections) {
    if (sec->kind == SectionKind::Reloc && sec->relocs.empty()) {
      OutputSection *twin = sec->rela && !sec->merc && sec->target
                                ? find_section(ctx, ".nv.merc.rela" + std::string(sec->target->name))
                                : nullptr;
      // (An optimizer bank's twin, and the user bank's, has the bank's
      // Mercury name.)
      if ((!twin || twin->relocs.empty()) && sec->rela && !sec->merc && sec->target &&
          (sec->target->renamed_from.starts_with(".nv.constant.optimizer.") ||
           sec->target->renamed_from == ".nv.constant.user"))
        twin = find_section(ctx, ".nv.merc.rela" + std::string(sec->target->renamed_from));
      if (!twin || twin->relocs.empty())
        sec->removed = true;
    }
    if (sec->kind == SectionKind::Compat && !out.have_compat && !ctx.inputs.empty())
      sec->removed = true;
    // An empty .nv.info is dropped (no live code); with no device code at
    // all, .nv.compat holds only the accelerator-target record.
    if (sec->name == ".nv.info" && sec->records.empty())
      sec->removed = true;
  }
  if (ctx.inputs.empty() && !out.have_compat) {
    EiRecord target;
    target.format = EIFMT_BVAL;
    target.attr = 0x09; // EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET (value set when written)
    out.compat = {target};
    if (ctx.arch.is_mercury()) { // sm_100+: and a zero record 0x0b (value set when written)
      EiRecord features;
      features.format = EIFMT_SVAL;
      features.attr = 0x0b;
      features.value = 8;
      out.compat.push_back(features);
    }
  }

  // Final section order and indices.
  std::vector<OutputSection *> order;
  for (OutputSection *sec : out.sections)
    if (!sec->removed)
      order.push_back(sec);
  // Sections created after the merge (sm_100+: parameter banks and the
  // capsule-Mercury group) follow in creation order.
  std::stable_sort(order.begin(), order.end(), [](const OutputSection *a, const OutputSection *b) {
    if (a->late != b->late)
      return b->late;
    if (a->late)
      return false;
    return group_of(a) < group_of(b);
  });
  // ELF extended section numbering (docs/notes/semantics-findings.md §22).
  // nvlink numbers every section it creates,
  // removed ones included, counting the null section, a .symtab_shndx it
  // creates after .symtab and one more section after the skeleton: when the
  // highest of these numbers reaches SHN_LORESERVE (0xff00) the image keeps
  // .symtab_shndx (right after .symtab), whatever its final size. Separately,
  // e_shnum is 0 with the count in section 0's sh_size when the highest final
  // index reaches 0xff00 (measured on sm_75 and sm_90; refused for sm_100+
  // until measured there).
  const bool extended = out.sections.size() + 2 >= SHN_LORESERVE;
  if (extended && ctx.arch.is_mercury())
    ctx.diag.fatal(fmt::format("the link creates {} sections; links that need an extended section index "
                               "table (.symtab_shndx) are not supported by dlink yet for {}",
                               out.sections.size() + 3, ctx.arch.name()));
  size_t symtab_pos = order.size();
  for (size_t i = 0; i < order.size(); i++)
    if (order[i]->kind == SectionKind::SymbolTable) {
      symtab_pos = i;
      break;
    }
  for (size_t i = 0; i < order.size(); i++)
    order[i]->index = static_cast<u32>(i + 1 + (extended && i > symtab_pos ? 1 : 0));
  // nvlink's own number of each section: its position among every section it
  // created (removed ones included), counting the null section, the
  // .symtab_shndx it always creates after .symtab, and one more section it
  // creates after the skeleton (.nv.info, .nv.compat). Stale entries of
  // .symtab_shndx hold these.
  std::unordered_map<const OutputSection *, u32> creation_index;
  if (extended) {
    u32 skeleton_end = 0;
    for (u32 i = 0; i < out.sections.size(); i++) {
      std::string_view n = out.sections[i]->name;
      if (n == ".shstrtab" || n == ".strtab" || n == ".symtab" || n == ".note.nv.tkinfo" ||
          n == ".note.nv.cuinfo" || n == ".nv.info" || n == ".nv.compat")
        skeleton_end = i + 1;
      else
        break;
    }
    for (u32 i = 0; i < out.sections.size(); i++)
      creation_index[out.sections[i]] = i + 1 + (i >= 3 ? 1 : 0) + (i >= skeleton_end ? 1 : 0);
  }

  // Symbols: nvlink's local array, its global array, then locals created
  // after the globals were fixed.
  u64 reserved = reserved_shared_bytes(ctx);
  auto emitted_local = [&](const OutputSymbol *sym) {
    if (sym->removed || (sym->section && sym->section->removed))
      return false;
    // Section symbols exist only for sections of the kinds that have them,
    // and not for empty memory sections.
    // (-g: .nv_debug.shared has one too, where it is not empty.)
    if (sym->is_section_symbol && !kind_has_section_symbol(sym->section->kind) &&
        !(ctx.opts.debug && sym->section->kind == SectionKind::DebugShared))
      return false;
    // A debug section no input's section symbol named (an empty
    // .debug_frame of a link without device code; .nv_debug_info_reg_sass
    // and _type of a -G link without device code) has none; one that an
    // input named keeps it even when it ends up empty (sm_100+ FDE
    // filtering): testdata/src/empty_debug_section_symbols.
    if (sym->is_section_symbol && sym->section->kind == SectionKind::Debug &&
        !sym->section->input_section_symbol)
      return false;
    SectionKind k = sym->is_section_symbol ? sym->section->kind : SectionKind::Other;
    // (sm_100+: a kernel's shared section, or -g's .nv_debug.shared, holding
    // only the reserved prefix counts as empty.)
    u64 empty = ctx.arch.is_mercury() && (k == SectionKind::Shared || k == SectionKind::DebugShared)
                    ? reserved
                    : 0;
    return !(sym->is_section_symbol && sym->section->size <= empty &&
             (k == SectionKind::Shared || k == SectionKind::Global ||
              k == SectionKind::DebugShared));
  };
  std::vector<OutputSymbol *> symbols;
  for (OutputSymbol *sym : out.locals)
    if (emitted_local(sym))
      symbols.push_back(sym);
  size_t num_locals = symbols.size() + 1;
  for (OutputSymbol *sym : out.globals)
    if (!sym->removed)
      symbols.push_back(sym);
  bool have_late = false;
  for (OutputSymbol *sym : out.late_locals)
    if (emitted_local(sym)) {
      symbols.push_back(sym);
      have_late = true;
    }
  // sh_info: 1 + index of the last local symbol.
  if (have_late)
    num_locals = symbols.size() + 1;

  // The capsule-Mercury symbol table mirrors the symbols that existed when
  // the globals were fixed, with Mercury sections, types and sizes.
  std::vector<OutputSymbol *> merc_symbols;
  size_t merc_locals = 1;
  if (out.merc_symtab) {
    for (OutputSymbol *sym : symbols) {
      bool late = std::find(out.late_locals.begin(), out.late_locals.end(), sym) !=
                  out.late_locals.end();
      if (late || (!sym->is_section_symbol && !sym->merc.present))
        continue;
      merc_symbols.push_back(sym);
      sym->merc.index = static_cast<u32>(merc_symbols.size());
      if (sym->bind == STB_LOCAL)
        merc_locals = merc_symbols.size() + 1;
    }
  }
  for (size_t i = 0; i < symbols.size(); i++)
    symbols[i]->index = static_cast<u32>(i + 1);

  // String tables.
  StringTable shstrtab(out.shstrtab_names.size());
  StringTable strtab(out.prototype_strings.size() + out.strtab_names.size() + out.globals.size() +
                     out.strtab_late_names.size());
  std::unordered_map<const OutputSection *, u32> own_name_offset;
  for (const auto &entry : out.shstrtab_names) {
    u32 off = shstrtab.add(entry.name, entry.pad, entry.own != nullptr);
    if (entry.own)
      own_name_offset[entry.own] = off;
  }
  for (std::string_view s : out.prototype_strings)
    if (s.empty())
      strtab.add_empty();
    else
      strtab.add(s);
  for (std::string_view s : out.strtab_names)
    strtab.add(s);
  for (OutputSymbol *sym : out.globals)
    strtab.add(sym->name);
  for (std::string_view s : out.strtab_late_names)
    strtab.add(s);

  // Metadata contents. (An EIATTR_EXTERNS entry of an input naming a symbol
  // the link has no output symbol for reaches here only from a corrupt
  // input: refused rather than written with a made-up index.)
  for (OutputSection *sec : order)
    if (sec->kind == SectionKind::ModuleInfo || sec->kind == SectionKind::FunctionInfo ||
        (sec->merc && sec->type == SHT_CUDA_MERC_INFO)) {
      for (const InfoRecord &r : sec->records)
        if (std::find(r.syms.begin(), r.syms.end(), nullptr) != r.syms.end())
          ctx.diag.fatal(fmt::format("Corrupt input file: a {} record in {} names a symbol that is "
                                     "not linked",
                                     eiattr_name(r.attr), sec->name));
      encode_records(sec, sec->merc);
    }
  for (OutputSection *sec : order) {
    if (sec->shares_twin_bytes && sec->twin)
      sec->data = sec->twin->data;
    // A capsule starts with the section index of its SASS .text twin.
    if (sec->type == SHT_CUDA_CAPMERC_TEXT && sec->twin && sec->data.size() >= 4)
      write_le<u32>(sec->data.data(), sec->twin->index);
    // sm_110: the Mercury copy's 0x80 bytes are nvlink's uninitialised
    // memory, a stale copy of the output's first two section headers (null,
    // .shstrtab at 0x40 with the size it had before the sections created
    // after the merge were named). It sits at 0x00 on every sm_110 golden but
    // ocg_banks_order (0x20) and is all zeros for some probes; the placement
    // follows nvlink's allocator (docs/notes/refinalization.md).
    if (sec->merc && sec->type == SHT_CUDA_SHARED_RESERVED && sec->data.size() >= 0x68) {
      const OutputSection *first_late = nullptr;
      for (const OutputSection *s : out.sections)
        if (s->late && (!first_late || s->create_seq < first_late->create_seq))
          first_late = s;
      if (first_late)
        write_le<u64>(sec->data.data() + 0x60, shstrtab.offset_of(first_late->name));
    }
  }
  {
    std::vector<u8> &d = callgraph->data;
    auto put = [&](u32 a, i32 b) {
      u8 e[8];
      write_le<u32>(e, a);
      write_le<i32>(e + 4, b);
      d.insert(d.end(), e, e + 8);
    };
    auto idx = [](const OutputSymbol *s) { return s ? s->index : 0u; };
    // Call edges: callers in symbol creation order, each caller's callees
    // most recent first (nvlink keeps a prepend list per caller).
    put(0, -1);
    // Group the edges by caller once (callers in order of first appearance).
    std::vector<OutputSymbol *> callers;
    std::unordered_map<const OutputSymbol *, std::vector<u32>> edges_of;
    for (u32 i = 0; i < out.call_edges.size(); i++) {
      if (out.dead_call_edges.count(i))
        continue;
      auto [it, fresh] = edges_of.try_emplace(out.call_edges[i].first);
      if (fresh)
        callers.push_back(out.call_edges[i].first);
      it->second.push_back(i);
    }
    std::stable_sort(callers.begin(), callers.end(), [](const OutputSymbol *x, const OutputSymbol *y) {
      return (x ? x->create_seq : 0) < (y ? y->create_seq : 0);
    });
    for (OutputSymbol *caller : callers) {
      const std::vector<u32> &list = edges_of[caller];
      for (auto it = list.rbegin(); it != list.rend(); ++it)
        put(idx(caller), static_cast<i32>(idx(out.call_edges[*it].second)));
    }
    // Address-taken functions in symbol creation order; indirect call sites
    // and their possible targets grouped by function (in symbol order), each
    // group most recent first, targets listed once per function.
    auto by_index = [&](auto list) {
      std::stable_sort(list.begin(), list.end(),
                       [&](const auto &x, const auto &y) { return idx(x.first) < idx(y.first); });
      return list;
    };
    auto by_creation = [&](auto list) {
      std::stable_sort(list.begin(), list.end(), [&](const auto &x, const auto &y) {
        return (x.first ? x.first->create_seq : 0) < (y.first ? y.first->create_seq : 0);
      });
      return list;
    };
    auto grouped_recent_first = [&](auto list, bool unique) {
      std::reverse(list.begin(), list.end());
      if (unique) {
        decltype(list) seen;
        for (auto &e : list)
          if (std::find(seen.begin(), seen.end(), e) == seen.end())
            seen.push_back(e);
        list = seen;
      }
      return unique ? by_creation(list) : by_index(list);
    };
    put(0, -2);
    // (Address-taken functions: in the order their output symbols were
    // created, wherever the entry came from.)
    for (auto &[a, p] : by_creation(out.address_taken))
      put(idx(a), static_cast<i32>(p.empty() ? strtab.empty_offset() : strtab.add(p)));
    put(0, -3);
    for (auto &[a, p] : grouped_recent_first(out.indirect_calls, false))
      put(idx(a), static_cast<i32>(strtab.add(p)));
    put(0, -4);
    for (auto &[a, b] : grouped_recent_first(out.indirect_targets, true))
      put(idx(a), static_cast<i32>(idx(b)));
    callgraph->size = d.size();
  }
  if (!prototype->removed) {
    std::vector<u8> &d = prototype->data;
    for (auto &[sym, proto] : out.prototypes) {
      u8 e[8];
      write_le<u32>(e, sym ? sym->index : 0);
      write_le<u32>(e + 4, strtab.offset_of(proto));
      d.insert(d.end(), e, e + 8);
    }
    prototype->size = d.size();
  }
  if (rel_action) {
    rel_action->data.assign(kRelAction.begin(), kRelAction.end());
    rel_action->size = rel_action->data.size();
  }
  for (OutputSection *sec : order) {
    if (sec->kind == SectionKind::Compat) {
      std::vector<EiRecord> recs;
      std::array<u8, 8> value_0b{};
      write_le<u64>(value_0b.data(), out.compat_0b);
      for (EiRecord r : out.compat) {
        if (r.attr == 0x0b && ctx.arch.sm < 100)
          continue;
        if (r.attr == 0x0b)
          r.payload = value_0b;
        if (r.attr == 0x09)
          r.value = ctx.arch.variant == Arch::Variant::Specific ? 1 : 0;
        recs.push_back(r);
      }
      auto bytes = encode_eiattrs(ctx.arena, recs);
      sec->data.assign(bytes.begin(), bytes.end());
      sec->size = sec->data.size();
    }
    if (sec->kind == SectionKind::Note && sec->name == ".note.nv.tkinfo") {
      append_note(sec->data, 2000, tkinfo_desc(ctx));
      for (auto note : out.input_tkinfo_notes)
        sec->data.insert(sec->data.end(), note.begin(), note.end());
      sec->size = sec->data.size();
    }
    if (sec->kind == SectionKind::Note && sec->name == ".note.nv.cuinfo") {
      u8 desc[8];
      write_le<u16>(desc, 2);
      write_le<u16>(desc + 2, static_cast<u16>(cuinfo_sm(ctx)));
      write_le<u32>(desc + 4, kCudaToolkitVersion);
      append_note(sec->data, 1000, desc);
      sec->size = sec->data.size();
    }
    if (sec->kind == SectionKind::Reloc) {
      std::vector<ElfReloc> relocs;
      for (const OutputReloc &r : sec->relocs) {
        u32 index = r.sym ? (sec->merc ? r.sym->merc.index : r.sym->index) : 0;
        // nvlink never leaves a relocation against symbol 0 in a linked
        // image (none in any golden output): the driver would patch S = 0
        // into the code. One here means a symbol the link could not name
        // (an internal or removed one): refuse rather than write it.
        if (index == 0)
          ctx.diag.fatal(fmt::format(
              "internal error: relocation of type 0x{:x} at 0x{:x} in '{}' against {} would "
              "name no symbol",
              r.type, r.offset, sec->name,
              r.sym ? fmt::format("'{}'", r.sym->name) : std::string("symbol 0")));
        relocs.push_back({r.offset, index, r.type, r.addend});
      }
      auto bytes = encode_relocs(ctx.arena, relocs, sec->rela);
      sec->data.assign(bytes.begin(), bytes.end());
      sec->size = sec->data.size();
    }
  }

  // The ELF file.
  ElfFile &elf = ctx.output_elf;
  const ElfFile &first = ctx.inputs.empty() ? elf : ctx.inputs.front()->elf;
  elf.ident = first.ident;
  if (ctx.inputs.empty()) {
    elf.ident = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x41, 8};
  }
  elf.type = relocatable_output(ctx) ? ET_REL : ET_EXEC; // (-r: relocatable.h)
  elf.machine = EM_CUDA;
  elf.version = 1;
  elf.phentsize = kPhdrSize;
  elf.shstrndx = 1;
  u32 cuinfo_index = 0, tkinfo_index = 0, compat_index = 0, symtab_index = 0;
  for (OutputSection *sec : order) {
    if (sec->name == ".note.nv.cuinfo")
      cuinfo_index = sec->index;
    if (sec->name == ".note.nv.tkinfo")
      tkinfo_index = sec->index;
    if (sec->kind == SectionKind::Compat)
      compat_index = sec->index;
    if (sec->kind == SectionKind::SymbolTable)
      symtab_index = sec->index;
  }
  elf.flags = (cuinfo_index << 24) | (ctx.arch.sm << 8) | (ctx.arch.sm >= 100 ? 0x02 : 0x04);

  std::vector<ElfSymbol> syms(1);
  syms[0].value = out.null_symbol_value;
  // .symtab_shndx (extended numbering only): the section index of a symbol
  // whose st_shndx is SHN_XINDEX; for the others, nvlink's own number of
  // the symbol's section (never updated to the final index).
  // (SHN_LORESERVE and SHN_COMMON: include/dlink/elf.h.)
  std::vector<u32> xindex(extended ? 1 : 0, 0);
  for (OutputSymbol *sym : symbols) {
    ElfSymbol e;
    e.name_offset = strtab.offset_of(sym->name);
    e.info = ElfSymbol::make_info(sym->bind, sym->type);
    e.other = sym->other;
    u32 shndx = sym->section && !sym->section->removed ? sym->section->index : 0;
    if (extended) {
      u32 stale = 0;
      if (sym->section && !sym->section->removed) {
        auto it = creation_index.find(sym->section);
        stale = it != creation_index.end() ? it->second : 0;
        if (it == creation_index.end())
          ctx.diag.fatal(fmt::format("internal error: section '{}' has no creation index", sym->section->name));
      }
      // A section whose index is SHN_COMMON (0xfff2) keeps it in st_shndx
      // (the symbol reads as a common one) with a stale entry, as nvlink
      // writes it.
      bool x = shndx >= SHN_LORESERVE && shndx != SHN_COMMON;
      xindex.push_back(x ? shndx : stale);
      if (x)
        shndx = SHN_XINDEX;
    }
    e.shndx = static_cast<u16>(shndx);
    e.value = sym->is_section_symbol ? 0 : sym->value;
    // -g: a kernel's own __shared__ variables stay local symbols; .symtab
    // gives their address in the kernel's window, after the reserved prefix
    // (their relocations use the offset). -r keeps them as the inputs have
    // them (relocatable.h).
    if (!ctx.opts.relocatable && sym->bind == STB_LOCAL && !sym->is_section_symbol && sym->section &&
        sym->section->kind == SectionKind::Shared)
      e.value += reserved_shared_bytes(ctx);
    e.size = sym->size;
    syms.push_back(e);
  }
  std::vector<ElfSymbol> merc_syms(1);
  merc_syms[0].value = out.null_symbol_value; // (as in .symtab: probes q2/q3, sm_100)
  for (OutputSymbol *sym : merc_symbols) {
    ElfSymbol e;
    const OutputSection *sec = sym->section;
    // The Mercury twin of a symbol's section, if it has one.
    const OutputSection *merc_sec = nullptr;
    if (sec && sec->kind == SectionKind::Text && sec->func)
      merc_sec = sec->func->merc.section;
    else if (sec && sec->symbol)
      merc_sec = sec->symbol->merc.section;
    const OutputSection *shown = merc_sec ? merc_sec : sec;
    e.shndx = shown && !shown->removed ? static_cast<u16>(shown->index) : 0;
    if (sym->is_section_symbol) {
      e.name_offset = strtab.offset_of(sec->renamed_from.empty() ? sym->name : sec->renamed_from);
      e.info = ElfSymbol::make_info(STB_LOCAL, STT_SECTION);
    } else {
      e.name_offset = strtab.offset_of(sym->name);
      e.info = sym->merc.info;
      e.other = sym->merc.other;
      e.value = sym->merc.value;
      e.size = sym->merc.size;
    }
    merc_syms.push_back(e);
  }

  elf.sections.reserve(order.size() + 1);
  elf.sections.assign(1, ElfSection{});
  for (OutputSection *sec : order) {
    ElfSection e;
    e.name = sec->name;
    auto own = own_name_offset.find(sec);
    e.name_offset = own != own_name_offset.end() ? own->second : shstrtab.offset_of(sec->name);
    e.type = sec->type;
    e.flags = sec->flags;
    e.addralign = sec->align;
    e.entsize = sec->entsize;
    u32 merc_symtab_index = out.merc_symtab ? out.merc_symtab->index : 0;
    if (sec == out.merc_symtab) {
      auto bytes = encode_symbols(ctx.arena, merc_syms);
      sec->data.assign(bytes.begin(), bytes.end());
      e.link = find_section(ctx, ".strtab")->index;
      e.info = static_cast<u32>(merc_locals);
    } else if (sec->merc) {
      if (sec->type == SHT_CUDA_CAPMERC_TEXT) {
        e.link = merc_symtab_index;
        e.info = sec->func ? sec->func->merc.index : 0;
      } else if (sec->type == SHT_CUDA_MERC_INFO) {
        e.link = merc_symtab_index;
        e.info = sec->func && sec->func->merc.section ? sec->func->merc.section->index : 0;
      } else if (sec->kind == SectionKind::Reloc) {
        e.link = merc_symtab_index;
        e.info = sec->target ? sec->target->index : 0;
      } else if (sec->func && sec->func->merc.section) {
        // A kernel's header-index bank points at the kernel's capsule.
        e.info = sec->func->merc.section->index;
      }
    } else
    switch (sec->kind) {
    case SectionKind::StringTable:
      sec->data = sec->name == ".shstrtab" ? shstrtab.bytes() : strtab.bytes();
      break;
    case SectionKind::SymbolTable: {
      auto bytes = encode_symbols(ctx.arena, syms);
      sec->data.assign(bytes.begin(), bytes.end());
      e.link = find_section(ctx, ".strtab")->index;
      e.info = static_cast<u32>(num_locals);
      break;
    }
    case SectionKind::Text:
      e.link = symtab_index;
      e.info = (sec->func ? sec->func->index : 0) | sec->info_high;
      break;
    case SectionKind::ModuleInfo:
    case SectionKind::Callgraph:
    case SectionKind::Prototype:
      e.link = symtab_index;
      break;
    case SectionKind::FunctionInfo: {
      e.link = symtab_index;
      OutputSection *text = sec->func && sec->func->section ? sec->func->section
                                                             : find_section(ctx, ".text." + std::string(sec->name.substr(9)));
      e.info = text ? text->index : 0;
      break;
    }
    case SectionKind::Reloc:
      e.link = symtab_index;
      e.info = sec->target ? sec->target->index : 0;
      break;
    case SectionKind::Constant:
    case SectionKind::Shared: {
      // Per-kernel sections (".nv.shared.<k>", ".nv.constant<N>.<k>") point
      // at the kernel's code.
      size_t dot = sec->kind == SectionKind::Shared ? 10 : sec->name.find('.', 12);
      if (dot != std::string_view::npos) {
        OutputSection *text = find_section(ctx, ".text." + std::string(sec->name.substr(dot + 1)));
        e.info = text ? text->index : 0;
      }
      break;
    }
    case SectionKind::Note:
      if (sec->name == ".note.nv.cuinfo") {
        e.link = tkinfo_index;
        if (compat_index) {
          e.info = compat_index;
          e.flags |= SHF_INFO_LINK;
        }
      }
      break;
    default:
      break;
    }
    if (sec->has_file_data())
      sec->size = sec->data.size();
    e.size = sec->size;
    if (sec->has_file_data())
      e.data = sec->data;
    elf.sections.push_back(e);
    if (extended && sec->kind == SectionKind::SymbolTable) {
      ElfSection x;
      x.name = ".symtab_shndx";
      x.name_offset = shstrtab.offset_of(x.name);
      x.type = SHT_SYMTAB_SHNDX;
      x.link = sec->index;
      x.addralign = 4;
      x.entsize = 4;
      std::span<u8> bytes = ctx.arena.alloc(xindex.size() * 4);
      for (size_t i = 0; i < xindex.size(); i++)
        write_le<u32>(bytes.data() + 4 * i, xindex[i]);
      x.size = bytes.size();
      x.data = bytes;
      elf.sections.push_back(x);
    }
  }
  if (elf.sections.size() > SHN_LORESERVE)
    elf.sections[0].size = elf.sections.size(); // (e_shnum 0: src/elf/elf.cpp)

  if (ctx.arch.is_mercury()) {
    elf.sections[1].file_slack = kMercuryShstrtabSlack;
    elf.sections[find_section(ctx, ".strtab")->index].file_slack = out.strtab_slack;
  }
  if (relocatable_output(ctx))
    assign_offsets(elf, OffsetStyle::Linker); // (no program headers)
  else
    build_program_headers(elf, order);
}

namespace {

// Writes the output image piece by piece with writev(): no second copy of
// the image in memory.
class FileWriter {
public:
  explicit FileWriter(int fd) : fd_(fd) {}
  void add(std::span<const u8> bytes) {
    if (bytes.empty())
      return;
    iov_.push_back({const_cast<u8 *>(bytes.data()), bytes.size()});
    if (iov_.size() == kBatch)
      flush();
  }
  // False if a write failed.
  bool flush() {
    size_t first = 0;
    while (ok_ && first < iov_.size()) {
      ssize_t n = ::writev(fd_, iov_.data() + first, static_cast<int>(iov_.size() - first));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0) {
        ok_ = false;
        break;
      }
      // Skip what was written (a short write may end inside an entry).
      for (size_t left = static_cast<size_t>(n); left > 0;) {
        iovec &v = iov_[first];
        size_t step = std::min(left, v.iov_len);
        v.iov_base = static_cast<u8 *>(v.iov_base) + step;
        v.iov_len -= step;
        left -= step;
        if (v.iov_len == 0)
          first++;
      }
    }
    iov_.clear();
    return ok_;
  }

private:
  static constexpr size_t kBatch = 1024; // IOV_MAX on Linux
  int fd_;
  std::vector<iovec> iov_;
  bool ok_ = true;
};

} // namespace

void commit_output(Context &ctx) {
  if (std::vector<u8> *memory = ctx.opts.embedded.output) { // the library API's output
    ElfImage image = elf_image(ctx.output_elf);
    memory->clear();
    for (std::span<const u8> piece : image.pieces)
      memory->insert(memory->end(), piece.begin(), piece.end());
    return;
  }
  const std::string &path = ctx.opts.output_file;
  std::string tmp = path + ".dlink-tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0)
    ctx.diag.fatal(fmt::format("Could not open output file '{}'", path));
  FileWriter writer(fd);
  ElfImage image = elf_image(ctx.output_elf);
  for (std::span<const u8> piece : image.pieces)
    writer.add(piece);
  bool written = writer.flush();
  if (::close(fd) != 0 || !written) {
    std::remove(tmp.c_str());
    ctx.diag.fatal(fmt::format("Could not write output file '{}'", path));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    ctx.diag.fatal(fmt::format("Could not open output file '{}'", path));
  }
}

} // namespace dlink
