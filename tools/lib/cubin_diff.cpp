// Semantic cubin comparison (cubin_diff.h).
//
// Sections are paired by name in order of appearance. Each pair is compared
// on its header fields and its bytes; the first differing pair (in A's
// section order) is explained in terms of its contents: symbol tables entry
// by entry and field by field, relocation tables entry by entry with type
// and symbol names, EIATTR sections record by record decoded, notes, call
// graph and prototype sections line by line as dlink-dump renders them,
// string tables string by string, anything else by first differing byte with
// a hex window. Decoding failures fall back to the byte comparison.
#include "lib/cubin_diff.h"

#include "dlink/eiattr.h"
#include "elf/cubin_text.h"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dlink {

namespace {

struct FieldDiff {
  std::string name;
  std::string a, b;
};

template <typename T>
void add_if(std::vector<FieldDiff> &out, const char *name, const T &a, const T &b) {
  if (a != b)
    out.push_back({name, fmt::format("0x{:x}", a), fmt::format("0x{:x}", b)});
}

std::vector<FieldDiff> header_diffs(const ElfFile &a, const ElfFile &b) {
  std::vector<FieldDiff> d;
  for (size_t i = 0; i < a.ident.size(); i++)
    if (a.ident[i] != b.ident[i])
      d.push_back({fmt::format("e_ident[{}]", i), fmt::format("0x{:02x}", a.ident[i]),
                   fmt::format("0x{:02x}", b.ident[i])});
  add_if(d, "e_type", a.type, b.type);
  add_if(d, "e_machine", a.machine, b.machine);
  add_if(d, "e_version", a.version, b.version);
  add_if(d, "e_entry", a.entry, b.entry);
  add_if(d, "e_phoff", a.phoff, b.phoff);
  add_if(d, "e_shoff", a.shoff, b.shoff);
  if (a.flags != b.flags)
    d.push_back({"e_flags", fmt::format("0x{:08x} ({})", a.flags, describe_e_flags(a.flags)),
                 fmt::format("0x{:08x} ({})", b.flags, describe_e_flags(b.flags))});
  add_if(d, "e_ehsize", a.ehsize, b.ehsize);
  add_if(d, "e_phentsize", a.phentsize, b.phentsize);
  add_if(d, "e_phnum", a.segments.size(), b.segments.size());
  add_if(d, "e_shentsize", a.shentsize, b.shentsize);
  add_if(d, "e_shnum", a.sections.size(), b.sections.size());
  add_if(d, "e_shstrndx", a.shstrndx, b.shstrndx);
  return d;
}

std::vector<FieldDiff> segment_diffs(const ElfProgramHeader &a, const ElfProgramHeader &b) {
  std::vector<FieldDiff> d;
  add_if(d, "p_type", a.type, b.type);
  add_if(d, "p_flags", a.flags, b.flags);
  add_if(d, "p_offset", a.offset, b.offset);
  add_if(d, "p_vaddr", a.vaddr, b.vaddr);
  add_if(d, "p_paddr", a.paddr, b.paddr);
  add_if(d, "p_filesz", a.filesz, b.filesz);
  add_if(d, "p_memsz", a.memsz, b.memsz);
  add_if(d, "p_align", a.align, b.align);
  return d;
}

std::vector<FieldDiff> section_header_diffs(const ElfSection &a, const ElfSection &b) {
  std::vector<FieldDiff> d;
  if (a.type != b.type)
    d.push_back({"sh_type", section_type_name(a.type), section_type_name(b.type)});
  add_if(d, "sh_flags", a.flags, b.flags);
  add_if(d, "sh_addr", a.addr, b.addr);
  add_if(d, "sh_offset", a.offset, b.offset);
  add_if(d, "sh_size", a.size, b.size);
  add_if(d, "sh_link", a.link, b.link);
  add_if(d, "sh_info", a.info, b.info);
  add_if(d, "sh_addralign", a.addralign, b.addralign);
  add_if(d, "sh_entsize", a.entsize, b.entsize);
  add_if(d, "sh_name", a.name_offset, b.name_offset);
  return d;
}

std::string field_names(const std::vector<FieldDiff> &d) {
  std::string out;
  for (const auto &f : d)
    out += (out.empty() ? "" : ",") + f.name;
  return out;
}

void print_fields(std::ostream &out, const std::vector<FieldDiff> &d, std::string_view indent) {
  for (const auto &f : d)
    out << fmt::format("{}{}: {} vs {}\n", indent, f.name, f.a, f.b);
}

bool bytes_equal(std::span<const u8> a, std::span<const u8> b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
}

// Hex windows around the first differing byte of two byte strings.
void byte_detail(std::ostream &out, std::span<const u8> a, std::span<const u8> b, u64 base_a,
                 u64 base_b) {
  auto at = first_difference(a, b);
  if (!at)
    return;
  out << fmt::format("    first differing byte at section offset 0x{:x} (file 0x{:x} vs 0x{:x}; "
                     "sizes 0x{:x} vs 0x{:x})\n",
                     *at, base_a + *at, base_b + *at, a.size(), b.size());
  u64 start = *at & ~u64(15);
  start = start >= 16 ? start - 16 : 0;
  auto window = [&](std::span<const u8> s, const char *label) {
    out << "    " << label << ":\n";
    if (start >= s.size()) {
      out << fmt::format("      (section ends at 0x{:x})\n", s.size());
      return;
    }
    auto part = s.subspan(start, std::min<u64>(48, s.size() - start));
    for (const auto &line : hex_dump(part, start))
      out << "      " << line << "\n";
  };
  window(a, "A");
  window(b, "B");
}

// Machine code (sm_75 and later: 16-byte instructions). Bits 105-127 of an
// instruction are its scheduling controls: stall cycles (4 bits), yield,
// write scoreboard (3), read scoreboard (3; 7 = none), wait mask (6) and
// operand reuse (4). Tells apart code that differs only there (nvlink
// re-finalizing a kernel on sm_100+ changes scoreboards, not instructions)
// from code that differs in the instructions themselves.
struct Controls {
  unsigned stall, yield, write_sb, read_sb, wait, reuse;
};

Controls controls_of(std::span<const u8> insn) {
  u32 hi = u32(insn[12]) | u32(insn[13]) << 8 | u32(insn[14]) << 16 | u32(insn[15]) << 24;
  return {(hi >> 9) & 15, (hi >> 13) & 1, (hi >> 14) & 7, (hi >> 17) & 7, (hi >> 20) & 63,
          (hi >> 26) & 15};
}

std::string format_controls(const Controls &c) {
  std::string sb = [](unsigned w, unsigned r) {
    std::string s;
    if (w != 7)
      s += fmt::format(" wr=SB{}", w);
    if (r != 7)
      s += fmt::format(" rd=SB{}", r);
    return s;
  }(c.write_sb, c.read_sb);
  std::string wait;
  for (unsigned k = 0; k < 6; k++)
    if (c.wait >> k & 1)
      wait += fmt::format("{}SB{}", wait.empty() ? " wait=" : ",", k);
  return fmt::format("stall={}{}{}{}{}", c.stall, c.yield ? " yield" : "", sb, wait,
                     c.reuse ? fmt::format(" reuse=0x{:x}", c.reuse) : "");
}

// Control bits live in bytes 13-15 above bit 105 (byte 13 bit 1).
bool differs_outside_controls(std::span<const u8> a, std::span<const u8> b) {
  for (int i = 0; i < 13; i++)
    if (a[i] != b[i])
      return true;
  return (a[13] & 0x01) != (b[13] & 0x01);
}

struct CodeDiff {
  size_t instructions = 0, differing = 0, control_only = 0;
  std::vector<size_t> first; // up to 8 differing instruction indices
};

std::optional<CodeDiff> compare_code(const ElfSection &a, const ElfSection &b) {
  if (a.type != SHT_PROGBITS || !(a.flags & SHF_EXECINSTR) || a.data.size() != b.data.size() ||
      a.data.size() % 16 != 0)
    return std::nullopt;
  CodeDiff d;
  d.instructions = a.data.size() / 16;
  for (size_t i = 0; i < d.instructions; i++) {
    auto ia = std::span(a.data).subspan(i * 16, 16), ib = std::span(b.data).subspan(i * 16, 16);
    if (bytes_equal(ia, ib))
      continue;
    d.differing++;
    if (!differs_outside_controls(ia, ib))
      d.control_only++;
    if (d.first.size() < 8)
      d.first.push_back(i);
  }
  return d;
}

bool code_detail(std::ostream &out, const ElfSection &a, const ElfSection &b) {
  auto cd = compare_code(a, b);
  if (!cd)
    return false;
  size_t differing = cd->differing;
  const auto &shown = cd->first;
  out << fmt::format("    {} of {} instructions differ; {} of them only in scheduling controls "
                     "(stall, yield, scoreboards, reuse)\n",
                     differing, cd->instructions, cd->control_only);
  for (size_t i : shown) {
    auto ia = std::span(a.data).subspan(i * 16, 16), ib = std::span(b.data).subspan(i * 16, 16);
    bool encoding = differs_outside_controls(ia, ib);
    out << fmt::format("    +0x{:04x}{}\n      A: {}\n      B: {}\n", i * 16,
                       encoding ? " (instruction bits differ too)" : "",
                       format_controls(controls_of(ia)), format_controls(controls_of(ib)));
    if (encoding) {
      for (const auto &line : hex_dump(ia, i * 16))
        out << "      A " << line << "\n";
      for (const auto &line : hex_dump(ib, i * 16))
        out << "      B " << line << "\n";
    }
  }
  if (differing > shown.size())
    out << fmt::format("    ... {} more\n", differing - shown.size());
  return true;
}

// Generic line-by-line comparison of two renderings.
bool line_detail(std::ostream &out, const std::vector<std::string> &a,
                 const std::vector<std::string> &b, std::string_view what) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i]) {
      out << fmt::format("    first differing {} (line {}):\n      A: {}\n      B: {}\n", what, i,
                         a[i], b[i]);
      return true;
    }
  if (a.size() != b.size()) {
    const auto &longer = a.size() > b.size() ? a : b;
    out << fmt::format("    {} count {} vs {}; first extra in {}: {}\n", what, a.size(), b.size(),
                       a.size() > b.size() ? "A" : "B", longer[n]);
    return true;
  }
  return false;
}

bool symtab_detail(std::ostream &out, const ElfFile &fa, const ElfSection &a, const ElfFile &fb,
                   const ElfSection &b) {
  auto sa = read_symbols(fa, a);
  auto sb = read_symbols(fb, b);
  size_t n = std::min(sa.size(), sb.size());
  for (size_t i = 0; i < n; i++) {
    const ElfSymbol &x = sa[i], &y = sb[i];
    std::vector<FieldDiff> d;
    if (x.name != y.name)
      d.push_back({"name", std::string(x.name), std::string(y.name)});
    add_if(d, "st_name", x.name_offset, y.name_offset);
    if (x.bind() != y.bind())
      d.push_back({"bind", symbol_bind_name(x.bind()), symbol_bind_name(y.bind())});
    if (x.type() != y.type())
      d.push_back({"type", symbol_type_name(x.type()), symbol_type_name(y.type())});
    if (x.other != y.other)
      d.push_back({"other", symbol_other_string(x.other), symbol_other_string(y.other)});
    if (x.shndx != y.shndx)
      d.push_back({"shndx", section_index_name(fa, x.shndx), section_index_name(fb, y.shndx)});
    add_if(d, "value", x.value, y.value);
    add_if(d, "size", x.size, y.size);
    if (!d.empty()) {
      out << fmt::format("    first differing symbol #{} ({}):\n", i, field_names(d));
      print_fields(out, d, "      ");
      out << fmt::format("      A: {}\n      B: {}\n", format_symbol(fa, x), format_symbol(fb, y));
      return true;
    }
  }
  if (sa.size() != sb.size()) {
    bool a_longer = sa.size() > sb.size();
    out << fmt::format("    symbol count {} vs {}; first extra in {}: #{} {}\n", sa.size(),
                       sb.size(), a_longer ? "A" : "B", n,
                       a_longer ? format_symbol(fa, sa[n]) : format_symbol(fb, sb[n]));
    return true;
  }
  return false;
}

SymbolNamer namer_of(const ElfFile &f, const ElfSection &sec) {
  const ElfSection *symtab = linked_symtab(f, sec);
  return make_symbol_namer(symtab ? try_read_symbols(f, *symtab) : std::vector<ElfSymbol>{});
}

bool reloc_detail(std::ostream &out, const ElfFile &fa, const ElfSection &a, const ElfFile &fb,
                  const ElfSection &b) {
  auto ra = read_relocs(a);
  auto rb = read_relocs(b);
  auto na = namer_of(fa, a), nb = namer_of(fb, b);
  bool rela_a = is_rela_section(a), rela_b = is_rela_section(b);
  size_t n = std::min(ra.size(), rb.size());
  for (size_t i = 0; i < n; i++) {
    const ElfReloc &x = ra[i], &y = rb[i];
    std::vector<FieldDiff> d;
    add_if(d, "r_offset", x.offset, y.offset);
    add_if(d, "type", x.type, y.type);
    add_if(d, "sym", x.sym, y.sym);
    if (na(x.sym) != nb(y.sym))
      d.push_back({"symbol name", na(x.sym), nb(y.sym)});
    add_if(d, "addend", x.addend, y.addend);
    if (!d.empty()) {
      out << fmt::format("    first differing relocation #{} ({}):\n", i, field_names(d));
      out << fmt::format("      A: {}\n      B: {}\n", format_reloc(x, rela_a, na),
                         format_reloc(y, rela_b, nb));
      return true;
    }
  }
  if (ra.size() != rb.size()) {
    bool a_longer = ra.size() > rb.size();
    out << fmt::format("    relocation count {} vs {}; first extra in {}: #{} {}\n", ra.size(),
                       rb.size(), a_longer ? "A" : "B", n,
                       a_longer ? format_reloc(ra[n], rela_a, na) : format_reloc(rb[n], rela_b, nb));
    return true;
  }
  return false;
}

bool eiattr_detail(std::ostream &out, const ElfFile &fa, const ElfSection &a, const ElfFile &fb,
                   const ElfSection &b) {
  auto ra = parse_eiattrs(a.data);
  auto rb = parse_eiattrs(b.data);
  bool compat = a.type == SHT_CUDA_COMPAT;
  auto na = compat ? make_symbol_namer({}) : namer_of(fa, a);
  auto nb = compat ? make_symbol_namer({}) : namer_of(fb, b);
  size_t n = std::min(ra.size(), rb.size());
  u64 pos_a = 0, pos_b = 0;
  for (size_t i = 0; i < n; i++) {
    const EiRecord &x = ra[i], &y = rb[i];
    if (x.format != y.format || x.attr != y.attr || x.value != y.value ||
        !bytes_equal(x.payload, y.payload)) {
      out << fmt::format("    first differing record #{} (offset 0x{:x} vs 0x{:x}):\n", i, pos_a,
                         pos_b);
      out << fmt::format("      A: {}\n      B: {}\n", format_eirecord(x, compat, na),
                         format_eirecord(y, compat, nb));
      return true;
    }
    pos_a += x.encoded_size();
    pos_b += y.encoded_size();
  }
  if (ra.size() != rb.size()) {
    bool a_longer = ra.size() > rb.size();
    out << fmt::format("    record count {} vs {}; first extra in {}: #{} {}\n", ra.size(),
                       rb.size(), a_longer ? "A" : "B", n,
                       a_longer ? format_eirecord(ra[n], compat, na)
                                : format_eirecord(rb[n], compat, nb));
    return true;
  }
  return false;
}

std::vector<std::string> note_lines(const ElfSection &sec) {
  std::vector<std::string> lines;
  for (const auto &note : read_notes(sec))
    for (auto &line : format_note(note))
      lines.push_back(std::move(line));
  return lines;
}

std::vector<std::string> string_lines(const ElfSection &sec) {
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < sec.data.size()) {
    const char *p = reinterpret_cast<const char *>(sec.data.data()) + pos;
    size_t len = strnlen(p, sec.data.size() - pos);
    lines.push_back(fmt::format("0x{:x} \"{}\"", pos, std::string_view(p, len)));
    pos += len + 1;
  }
  return lines;
}

// Explains how the contents of one section pair differ.
void content_detail(std::ostream &out, const ElfFile &fa, const ElfSection &a, const ElfFile &fb,
                    const ElfSection &b) {
  if (bytes_equal(a.data, b.data))
    return;
  bool explained = false;
  try {
    if (a.type != b.type)
      explained = false;
    else if (is_symtab_section(a))
      explained = symtab_detail(out, fa, a, fb, b);
    else if (is_reloc_section(a))
      explained = reloc_detail(out, fa, a, fb, b);
    else if (is_eiattr_section(a))
      explained = eiattr_detail(out, fa, a, fb, b);
    else if (a.type == SHT_NOTE)
      explained = line_detail(out, note_lines(a), note_lines(b), "note line");
    else if (a.type == SHT_CUDA_CALLGRAPH)
      explained = line_detail(out, format_callgraph(fa, a), format_callgraph(fb, b), "entry");
    else if (a.type == SHT_CUDA_PROTOTYPE)
      explained = line_detail(out, format_prototypes(fa, a), format_prototypes(fb, b), "entry");
    else if (a.type == SHT_STRTAB)
      explained = line_detail(out, string_lines(a), string_lines(b), "string");
    else if (compare_code(a, b))
      explained = code_detail(out, a, b);
  } catch (const std::exception &e) {
    out << "    (cannot decode contents: " << e.what() << ")\n";
  }
  if (!explained)
    byte_detail(out, a.data, b.data, a.offset, b.offset);
}

struct SectionPair {
  u32 a, b;
};

} // namespace

std::optional<u64> first_difference(std::span<const u8> a, std::span<const u8> b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i])
      return i;
  if (a.size() != b.size())
    return n;
  return std::nullopt;
}

std::string describe_file_offset(const ElfFile &f, u64 offset) {
  if (offset < kEhdrSize)
    return "ELF header";
  if (offset >= f.shoff && offset < f.shoff + f.sections.size() * kShdrSize) {
    u64 i = (offset - f.shoff) / kShdrSize;
    return fmt::format("section header table, entry [{}] {}", i, f.sections[i].name);
  }
  if (!f.segments.empty() && offset >= f.phoff &&
      offset < f.phoff + f.segments.size() * kPhdrSize)
    return fmt::format("program header table, entry {}", (offset - f.phoff) / kPhdrSize);
  std::string before;
  u64 best_end = 0;
  for (u32 i = 0; i < f.sections.size(); i++) {
    const ElfSection &s = f.sections[i];
    if (!occupies_file_space(s))
      continue;
    if (offset >= s.offset && offset < s.offset + s.size)
      return fmt::format("section [{}] {} + 0x{:x}", i, s.name, offset - s.offset);
    u64 end = s.offset + s.size;
    if (end <= offset && end >= best_end) {
      best_end = end;
      before = fmt::format("padding after section [{}] {}", i, s.name);
    }
  }
  return before.empty() ? "padding" : before;
}

bool diff_cubins(const ElfFile &a, const ElfFile &b, std::ostream &out) {
  bool differ = false;
  auto hd = header_diffs(a, b);
  if (!hd.empty()) {
    differ = true;
    out << "ELF header differs:\n";
    print_fields(out, hd, "  ");
  }

  size_t nseg = std::min(a.segments.size(), b.segments.size());
  for (size_t i = 0; i < nseg; i++) {
    auto d = segment_diffs(a.segments[i], b.segments[i]);
    if (!d.empty()) {
      differ = true;
      out << fmt::format("program header {} differs:\n", i);
      print_fields(out, d, "  ");
    }
  }
  if (a.segments.size() != b.segments.size()) {
    differ = true;
    out << fmt::format("program header count {} vs {}\n", a.segments.size(), b.segments.size());
  }

  // Pair sections by (name, occurrence).
  std::map<std::string, std::vector<u32>> b_by_name;
  for (u32 i = 1; i < b.sections.size(); i++)
    b_by_name[std::string(b.sections[i].name)].push_back(i);
  std::map<std::string, size_t> used;
  std::vector<SectionPair> pairs;
  std::vector<bool> b_matched(b.sections.size(), false);
  for (u32 i = 1; i < a.sections.size(); i++) {
    std::string name(a.sections[i].name);
    auto &cands = b_by_name[name];
    size_t k = used[name]++;
    if (k < cands.size()) {
      pairs.push_back({i, cands[k]});
      b_matched[cands[k]] = true;
    } else {
      differ = true;
      out << fmt::format("only in A: section [{}] {}\n", i, name);
    }
  }
  for (u32 i = 1; i < b.sections.size(); i++)
    if (!b_matched[i]) {
      differ = true;
      out << fmt::format("only in B: section [{}] {}\n", i, b.sections[i].name);
    }

  bool first = true;
  std::vector<std::string> others;
  for (const auto &p : pairs) {
    const ElfSection &sa = a.sections[p.a], &sb = b.sections[p.b];
    auto hdr = section_header_diffs(sa, sb);
    bool bytes_differ = !bytes_equal(sa.data, sb.data);
    if (hdr.empty() && !bytes_differ && p.a == p.b)
      continue;
    differ = true;
    std::string label = p.a == p.b ? fmt::format("[{}] {}", p.a, sa.name)
                                   : fmt::format("[{}] vs [{}] {}", p.a, p.b, sa.name);
    if (first) {
      first = false;
      out << "first differing section: " << label << "\n";
      if (p.a != p.b)
        out << fmt::format("    section index {} vs {}\n", p.a, p.b);
      print_fields(out, hdr, "    ");
      if (bytes_differ)
        content_detail(out, a, sa, b, sb);
      continue;
    }
    std::string what = hdr.empty() ? "" : "header (" + field_names(hdr) + ")";
    if (bytes_differ) {
      what += (what.empty() ? "" : ", ") + std::string("contents");
      if (auto cd = compare_code(sa, sb))
        what += cd->control_only == cd->differing
                    ? fmt::format(" ({} instructions, scheduling controls only)", cd->differing)
                    : fmt::format(" ({} instructions, {} beyond scheduling controls)",
                                  cd->differing, cd->differing - cd->control_only);
    }
    if (what.empty())
      what = "index only";
    others.push_back(fmt::format("  {}: {}", label, what));
  }
  if (!others.empty()) {
    out << "other differing sections:\n";
    for (const auto &line : others)
      out << line << "\n";
  }
  return differ;
}

} // namespace dlink
