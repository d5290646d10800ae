// Readable renderings of cubin structures (cubin_text.h).
//
// Nothing here throws on malformed data: decoders catch InputError from the
// object-model readers and fall back to "?" so dump and diff output stays as
// complete as possible. The names of the NVIDIA-specific values come from
// formats.md; where that document marks a meaning as unverified the text
// says so with a trailing '?'.
#include "elf/cubin_text.h"

#include "dlink/reloc_types.h"

#include <fmt/format.h>

namespace dlink {

namespace {

std::string string_or_q(const ElfSection &strtab, u32 offset) {
  try {
    return std::string(string_at(strtab, offset));
  } catch (const InputError &) {
    return "?";
  }
}

// The string table a symtab section links to, or nullptr.
const ElfSection *symtab_strtab(const ElfFile &file, const ElfSection *symtab) {
  if (!symtab || symtab->link >= file.sections.size())
    return nullptr;
  return &file.sections[symtab->link];
}

std::string sym_label(const SymbolNamer &namer, u32 index) {
  std::string name = namer ? namer(index) : std::string();
  return name.empty() ? fmt::format("{}", index) : fmt::format("{} ({})", index, name);
}

} // namespace

std::string elf_type_name(u16 type) {
  switch (type) {
  case ET_NONE: return "NONE";
  case ET_REL: return "REL";
  case ET_EXEC: return "EXEC";
  case 3: return "DYN";
  default: return fmt::format("0x{:x}", type);
  }
}

std::string describe_e_flags(u32 flags) {
  u32 low = flags & 0xff;
  std::string low_text = low == 0x02 ? " (capsule Mercury)" : low == 0x04 ? " (SASS)" : "";
  std::string out = fmt::format("sm_{}, low byte 0x{:02x}{}, cuinfo index {}", (flags >> 8) & 0xff,
                                low, low_text, flags >> 24);
  if ((flags >> 16) & 0xff)
    out += fmt::format(", bits 16-23 = 0x{:02x} (unexpected)", (flags >> 16) & 0xff);
  return out;
}

std::string segment_type_name(u32 type) {
  switch (type) {
  case 0: return "NULL";
  case PT_LOAD: return "LOAD";
  case 2: return "DYNAMIC";
  case 3: return "INTERP";
  case 4: return "NOTE";
  case PT_PHDR: return "PHDR";
  default: return fmt::format("0x{:x}", type);
  }
}

std::string segment_flags_string(u32 flags) {
  std::string out;
  out += flags & PF_R ? 'R' : ' ';
  out += flags & PF_W ? 'W' : ' ';
  out += flags & PF_X ? 'E' : ' ';
  if (flags & ~u32(PF_R | PF_W | PF_X))
    out += fmt::format(" 0x{:x}", flags);
  return out;
}

std::string section_type_name(u32 type) {
  switch (type) {
  case SHT_NULL: return "NULL";
  case SHT_PROGBITS: return "PROGBITS";
  case SHT_SYMTAB: return "SYMTAB";
  case SHT_STRTAB: return "STRTAB";
  case SHT_RELA: return "RELA";
  case SHT_NOTE: return "NOTE";
  case SHT_NOBITS: return "NOBITS";
  case SHT_REL: return "REL";
  case SHT_CUDA_INFO: return "CUDA_INFO";
  case SHT_CUDA_CALLGRAPH: return "CUDA_CALLGRAPH";
  case SHT_CUDA_PROTOTYPE: return "CUDA_PROTOTYPE";
  case SHT_CUDA_RESOLVED_RELA: return "CUDA_RESOLVED_RELA";
  case SHT_CUDA_GLOBAL: return "CUDA_GLOBAL";
  case SHT_CUDA_GLOBAL_INIT: return "CUDA_GLOBAL_INIT";
  case SHT_CUDA_LOCAL: return "CUDA_LOCAL?";
  case SHT_CUDA_SHARED: return "CUDA_SHARED";
  case SHT_CUDA_RELOCINFO: return "CUDA_RELOCINFO";
  case SHT_CUDA_SHARED_RESERVED: return "CUDA_SHARED_RESERVED";
  case SHT_CUDA_CAPMERC_TEXT: return "CUDA_CAPMERC_TEXT";
  case SHT_CUDA_MERC_RELA: return "CUDA_MERC_RELA";
  case SHT_CUDA_MERC_INFO: return "CUDA_MERC_INFO";
  case SHT_CUDA_MERC_SYMTAB: return "CUDA_MERC_SYMTAB";
  case SHT_CUDA_COMPAT: return "CUDA_COMPAT";
  case SHT_CUDA_MERC_RESOLVED_RELA: return "CUDA_MERC_RESOLVED_RELA";
  default: break;
  }
  // Constant banks run up to the first merc type (0x70000082).
  if (type >= SHT_CUDA_CONSTANT && type < SHT_CUDA_MERC_RELA)
    return fmt::format("CUDA_CONSTANT{}", type - SHT_CUDA_CONSTANT);
  if (type >= SHT_LOPROC)
    return fmt::format("LOPROC+0x{:x}", type - SHT_LOPROC);
  return fmt::format("0x{:x}", type);
}

std::string section_flags_string(u64 flags) {
  std::string out;
  if (flags & SHF_WRITE) out += 'W';
  if (flags & SHF_ALLOC) out += 'A';
  if (flags & SHF_EXECINSTR) out += 'X';
  if (flags & 0x10) out += 'M';
  if (flags & 0x20) out += 'S';
  if (flags & SHF_INFO_LINK) out += 'I';
  if (flags & 0x0ff00000) out += 'o'; // OS-specific: the note flags
  if (flags & 0xf0000000) out += 'p'; // processor-specific: merc
  u64 known = SHF_WRITE | SHF_ALLOC | SHF_EXECINSTR | 0x10 | 0x20 | SHF_INFO_LINK | 0xfff00000;
  if (flags & ~known)
    out += 'x';
  return out;
}

std::string symbol_bind_name(u8 bind) {
  switch (bind) {
  case STB_LOCAL: return "LOCAL";
  case STB_GLOBAL: return "GLOBAL";
  case STB_WEAK: return "WEAK";
  default: return fmt::format("BIND{}", bind);
  }
}

std::string symbol_type_name(u8 type) {
  switch (type) {
  case STT_NOTYPE: return "NOTYPE";
  case STT_OBJECT: return "OBJECT";
  case STT_FUNC: return "FUNC";
  case STT_SECTION: return "SECTION";
  case 4: return "FILE";
  case STT_CUDA_TEXTURE: return "CUDA_TEXTURE";
  case STT_CUDA_SAMPLER: return "CUDA_SAMPLER";
  case STT_CUDA_SURFACE: return "CUDA_SURFACE";
  case STT_CUDA_VARIABLE: return "CUDA_VARIABLE";
  default: return fmt::format("TYPE{}", type);
  }
}

std::string symbol_other_string(u8 other) {
  static const char *const kVisibility[] = {"DEFAULT", "INTERNAL", "HIDDEN", "PROTECTED"};
  std::string out = kVisibility[other & 3];
  if (other & STO_CUDA_MANAGED) out += "|MANAGED";
  if (other & 0x08) out += "|OBSCURE";
  if (other & STO_CUDA_ENTRY) out += "|ENTRY";
  switch (other & 0xe0) {
  case 0: break;
  case STO_CUDA_GLOBAL: out += "|SPACE_GLOBAL"; break;
  case STO_CUDA_SHARED: out += "|SPACE_SHARED"; break;
  case 0x60: out += "|SPACE_LOCAL"; break;
  case STO_CUDA_CONSTANT: out += "|SPACE_CONSTANT"; break;
  case STO_CUDA_RESERVED_SHARED: out += "|SPACE_RESERVED_SHARED"; break;
  default: out += fmt::format("|SPACE_0x{:x}", other & 0xe0); break;
  }
  return out;
}

std::string section_index_name(const ElfFile &file, u16 shndx) {
  switch (shndx) {
  case SHN_UNDEF: return "UNDEF";
  case SHN_ABS: return "ABS";
  case SHN_COMMON: return "COMMON";
  case SHN_XINDEX: return "XINDEX";
  default: break;
  }
  if (shndx < file.sections.size())
    return fmt::format("{} {}", shndx, file.sections[shndx].name);
  return fmt::format("{} ?", shndx);
}

std::vector<ElfSymbol> try_read_symbols(const ElfFile &file, const ElfSection &symtab) {
  try {
    return read_symbols(file, symtab);
  } catch (const InputError &) {
    return {};
  }
}

SymbolNamer make_symbol_namer(std::vector<ElfSymbol> syms) {
  return [syms = std::move(syms)](u32 index) -> std::string {
    if (index >= syms.size())
      return index == 0 ? std::string() : std::string("?");
    return std::string(syms[index].name);
  };
}

const ElfSection *linked_symtab(const ElfFile &file, const ElfSection &sec) {
  if (sec.link == 0 || sec.link >= file.sections.size())
    return nullptr;
  const ElfSection &s = file.sections[sec.link];
  return is_symtab_section(s) ? &s : nullptr;
}

std::string format_symbol(const ElfFile &file, const ElfSymbol &sym) {
  return fmt::format("{:<7} {:<13} {:<22} {:<28} value 0x{:x} size 0x{:x}  {}",
                     symbol_bind_name(sym.bind()), symbol_type_name(sym.type()),
                     symbol_other_string(sym.other), section_index_name(file, sym.shndx),
                     sym.value, sym.size, sym.name.empty() ? "\"\"" : std::string(sym.name));
}

std::string format_reloc(const ElfReloc &rel, bool rela, const SymbolNamer &sym_name) {
  std::string out = fmt::format("0x{:06x} {:<28} sym {}", rel.offset, reloc_name(rel.type),
                                sym_label(sym_name, rel.sym));
  if (rela)
    out += fmt::format(" {} 0x{:x}", rel.addend < 0 ? "-" : "+",
                       rel.addend < 0 ? ~u64(rel.addend) + 1 : u64(rel.addend));
  return out;
}

std::string format_eirecord(const EiRecord &rec, bool compat, const SymbolNamer &sym_name) {
  static const char *const kFormats[] = {"?", "NVAL", "BVAL", "HVAL", "SVAL"};
  const char *fmt_name = rec.format <= EIFMT_SVAL ? kFormats[rec.format] : "?";
  std::string value = compat ? format_eicompat_value(rec) : format_eiattr_value(rec, sym_name);
  std::string size = rec.format == EIFMT_SVAL ? fmt::format("[{}]", rec.payload.size()) : "";
  return fmt::format("{:<38} {}{:<5} {}", compat ? eicompat_name(rec.attr) : eiattr_name(rec.attr),
                     fmt_name, size, value);
}

bool is_rela_section(const ElfSection &sec) {
  return sec.type == SHT_RELA || sec.type == SHT_CUDA_MERC_RELA ||
         sec.type == SHT_CUDA_RESOLVED_RELA || sec.type == SHT_CUDA_MERC_RESOLVED_RELA;
}

bool is_reloc_section(const ElfSection &sec) { return sec.type == SHT_REL || is_rela_section(sec); }

bool is_eiattr_section(const ElfSection &sec) {
  return sec.type == SHT_CUDA_INFO || sec.type == SHT_CUDA_MERC_INFO ||
         sec.type == SHT_CUDA_COMPAT;
}

bool is_symtab_section(const ElfSection &sec) {
  return sec.type == SHT_SYMTAB || sec.type == SHT_CUDA_MERC_SYMTAB;
}

std::optional<CuInfo> decode_cuinfo(const ElfNote &note) {
  if (note.type != 1000 || note.desc.size() < 8)
    return std::nullopt;
  CuInfo ci;
  ci.version = read_le<u16>(&note.desc[0]);
  ci.sm = read_le<u16>(&note.desc[2]);
  ci.cuda_version = read_le<u32>(&note.desc[4]);
  return ci;
}

std::optional<TkInfo> decode_tkinfo(const ElfNote &note) {
  constexpr size_t kWords = 6;
  if (note.type != 2000 || note.desc.size() < kWords * 4)
    return std::nullopt;
  auto area = note.desc.subspan(kWords * 4);
  auto str = [&](size_t word) -> std::string {
    u32 off = read_le<u32>(&note.desc[word * 4]);
    if (off >= area.size())
      return off == 0 ? std::string() : std::string("?");
    const char *p = reinterpret_cast<const char *>(area.data()) + off;
    return std::string(p, strnlen(p, area.size() - off));
  };
  TkInfo tk;
  tk.version = read_le<u32>(&note.desc[0]);
  tk.object_name = str(1);
  tk.tool_name = str(2);
  tk.tool_version = str(3);
  tk.tool_branch = str(4);
  tk.command_line = str(5);
  return tk;
}

std::vector<std::string> format_note(const ElfNote &note) {
  std::vector<std::string> out;
  out.push_back(fmt::format("note \"{}\" type {} descsz {}", note.name, note.type,
                            note.desc.size()));
  if (auto ci = decode_cuinfo(note)) {
    out.push_back(fmt::format("  cuinfo: version {} sm_{} cuda {}.{} (0x{:x})", ci->version,
                              ci->sm, ci->cuda_version / 10, ci->cuda_version % 10,
                              ci->cuda_version));
  } else if (auto tk = decode_tkinfo(note)) {
    out.push_back(fmt::format("  tkinfo version {}", tk->version));
    out.push_back(fmt::format("    object name:  \"{}\"", tk->object_name));
    out.push_back(fmt::format("    tool name:    \"{}\"", tk->tool_name));
    out.push_back(fmt::format("    tool version: \"{}\"", tk->tool_version));
    out.push_back(fmt::format("    tool branch:  \"{}\"", tk->tool_branch));
    out.push_back(fmt::format("    command line: \"{}\"", tk->command_line));
  } else {
    for (auto &line : hex_dump(note.desc))
      out.push_back("  " + line);
  }
  return out;
}

std::vector<std::string> format_callgraph(const ElfFile &file, const ElfSection &sec) {
  static const char *const kBlocks[] = {
      "call edges (caller -> callee)", "address-taken functions (func, prototype)",
      "indirect call sites (func, prototype)", "prototype matches (func -> address-taken func)"};
  std::vector<std::string> out;
  const ElfSection *symtab = linked_symtab(file, sec);
  SymbolNamer namer = make_symbol_namer(symtab ? try_read_symbols(file, *symtab)
                                               : std::vector<ElfSymbol>{});
  const ElfSection *strtab = symtab_strtab(file, symtab);
  int block = 0;
  size_t n = sec.data.size() / 8;
  for (size_t i = 0; i < n; i++) {
    u32 a = read_le<u32>(&sec.data[i * 8]);
    i32 b = read_le<i32>(&sec.data[i * 8 + 4]);
    if (a == 0 && b < 0 && b >= -4) {
      block = -b;
      out.push_back(fmt::format("block {}: {}", block, kBlocks[block - 1]));
      continue;
    }
    if (block == 1 || block == 4) {
      out.push_back(fmt::format("  {} -> {}", sym_label(namer, a), sym_label(namer, u32(b))));
    } else if (block == 2 || block == 3) {
      std::string proto = strtab ? string_or_q(*strtab, u32(b)) : "?";
      out.push_back(fmt::format("  {} prototype 0x{:x} \"{}\"", sym_label(namer, a), u32(b), proto));
    } else {
      out.push_back(fmt::format("  (before any marker) {} {}", a, b));
    }
  }
  if (sec.data.size() % 8)
    out.push_back(fmt::format("  ({} trailing bytes)", sec.data.size() % 8));
  return out;
}

std::vector<std::string> format_prototypes(const ElfFile &file, const ElfSection &sec) {
  std::vector<std::string> out;
  const ElfSection *symtab = linked_symtab(file, sec);
  SymbolNamer namer = make_symbol_namer(symtab ? try_read_symbols(file, *symtab)
                                               : std::vector<ElfSymbol>{});
  const ElfSection *strtab = symtab_strtab(file, symtab);
  size_t n = sec.data.size() / 8;
  for (size_t i = 0; i < n; i++) {
    u32 sym = read_le<u32>(&sec.data[i * 8]);
    u32 off = read_le<u32>(&sec.data[i * 8 + 4]);
    std::string proto = strtab ? string_or_q(*strtab, off) : "?";
    out.push_back(fmt::format("  {} -> strtab 0x{:x} \"{}\"", sym_label(namer, sym), off, proto));
  }
  if (sec.data.size() % 8)
    out.push_back(fmt::format("  ({} trailing bytes)", sec.data.size() % 8));
  return out;
}

std::vector<std::string> hex_dump(std::span<const u8> bytes, u64 base) {
  std::vector<std::string> out;
  for (size_t i = 0; i < bytes.size(); i += 16) {
    std::string hex, text;
    for (size_t j = 0; j < 16; j++) {
      if (i + j < bytes.size()) {
        u8 c = bytes[i + j];
        hex += fmt::format("{:02x}", c);
        text += c >= 0x20 && c < 0x7f ? char(c) : '.';
      } else {
        hex += "  ";
      }
      if (j % 4 == 3)
        hex += ' ';
    }
    out.push_back(fmt::format("{:08x}  {} {}", base + i, hex, text));
  }
  return out;
}

} // namespace dlink
