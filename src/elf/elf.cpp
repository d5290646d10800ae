// Reading, writing and laying out ELF files of the object model (elf.h).
//
// The reader checks every offset and size against the buffer before use and
// reports malformed files with InputError; it never trusts a count read from
// the file to size an allocation without checking it against the file size.
#include "dlink/elf.h"

#include <fmt/format.h>

#include <algorithm>

namespace dlink {

namespace {

void check_range(std::span<const u8> bytes, u64 offset, u64 size, const char *what) {
  if (offset > bytes.size() || size > bytes.size() - offset)
    throw InputError(fmt::format("{} extends past the end of the file", what));
}

} // namespace

std::optional<u32> ElfFile::find_section(std::string_view name) const {
  if (indexed_sections && indexed_sections == sections.size()) {
    auto it = section_index.find(name);
    return it == section_index.end() ? std::nullopt : std::optional<u32>(it->second);
  }
  for (u32 i = 0; i < sections.size(); i++)
    if (sections[i].name == name)
      return i;
  return std::nullopt;
}

const ElfSection *ElfFile::section_named(std::string_view name) const {
  auto i = find_section(name);
  return i ? &sections[*i] : nullptr;
}

bool occupies_file_space(const ElfSection &sec) {
  switch (sec.type) {
  case SHT_NULL:
  case SHT_NOBITS:
  case SHT_CUDA_SHARED:
  case SHT_CUDA_GLOBAL:
  case SHT_CUDA_LOCAL:
    return false;
  case SHT_CUDA_SHARED_RESERVED:
    // Stored (as zero bytes) only in its sm_100+ copy (sm_110: 0x80 bytes
    // in REL and EXEC files); the SASS `.nv.shared.reserved.0` is not.
    return (sec.flags & SHF_CUDA_MERC) != 0;
  default:
    return true;
  }
}

bool is_cuda_elf(std::span<const u8> bytes) {
  return bytes.size() >= kEhdrSize && bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' &&
         bytes[3] == 'F' && bytes[4] == 2 && read_le<u16>(&bytes[18]) == EM_CUDA;
}

namespace {

// What read_elf copies into `small_sections`.
bool is_small_section(u32 type) {
  switch (type) {
  case SHT_STRTAB:
  case SHT_SYMTAB:
  case SHT_NOTE:
  case SHT_CUDA_INFO:
  case SHT_CUDA_MERC_INFO:
  case SHT_CUDA_CALLGRAPH:
  case SHT_CUDA_PROTOTYPE:
  case SHT_CUDA_COMPAT:
    return true;
  default:
    return false;
  }
}

} // namespace

ElfFile read_elf(std::span<const u8> bytes, Arena *small_sections) {
  if (bytes.size() < kEhdrSize || bytes[0] != 0x7f || bytes[1] != 'E' || bytes[2] != 'L' ||
      bytes[3] != 'F')
    throw InputError("not an ELF file");
  if (bytes[4] != 2 || bytes[5] != 1)
    throw InputError("not a 64-bit little-endian ELF file");
  ElfFile f;
  std::memcpy(f.ident.data(), bytes.data(), 16);
  const u8 *h = bytes.data();
  f.type = read_le<u16>(h + 16);
  f.machine = read_le<u16>(h + 18);
  f.version = read_le<u32>(h + 20);
  f.entry = read_le<u64>(h + 24);
  f.phoff = read_le<u64>(h + 32);
  f.shoff = read_le<u64>(h + 40);
  f.flags = read_le<u32>(h + 48);
  f.ehsize = read_le<u16>(h + 52);
  f.phentsize = read_le<u16>(h + 54);
  u16 phnum = read_le<u16>(h + 56);
  f.shentsize = read_le<u16>(h + 58);
  u16 shnum = read_le<u16>(h + 60);
  f.shstrndx = read_le<u16>(h + 62);

  if (shnum && f.shentsize != kShdrSize)
    throw InputError("unexpected section header size");
  check_range(bytes, f.shoff, u64(shnum) * kShdrSize, "section header table");
  f.sections.resize(shnum);
  for (u32 i = 0; i < shnum; i++) {
    const u8 *s = bytes.data() + f.shoff + u64(i) * kShdrSize;
    ElfSection &sec = f.sections[i];
    sec.name_offset = read_le<u32>(s);
    sec.type = read_le<u32>(s + 4);
    sec.flags = read_le<u64>(s + 8);
    sec.addr = read_le<u64>(s + 16);
    sec.offset = read_le<u64>(s + 24);
    sec.size = read_le<u64>(s + 32);
    sec.link = read_le<u32>(s + 40);
    sec.info = read_le<u32>(s + 44);
    sec.addralign = read_le<u64>(s + 48);
    sec.entsize = read_le<u64>(s + 56);
    if (occupies_file_space(sec)) {
      check_range(bytes, sec.offset, sec.size, "section");
      sec.data = bytes.subspan(sec.offset, sec.size);
    }
  }
  if (small_sections) {
    // (One block for all of them.)
    size_t total = 0;
    for (const ElfSection &sec : f.sections)
      if (is_small_section(sec.type))
        total += sec.data.size();
    std::span<u8> block = small_sections->alloc_uninitialized(total);
    for (ElfSection &sec : f.sections)
      if (is_small_section(sec.type) && !sec.data.empty()) {
        std::memcpy(block.data(), sec.data.data(), sec.data.size());
        sec.data = block.first(sec.data.size());
        block = block.subspan(sec.data.size());
      }
  }
  if (shnum) {
    if (f.shstrndx >= shnum)
      throw InputError("bad section name string table index");
    const ElfSection &shstr = f.sections[f.shstrndx];
    for (auto &sec : f.sections)
      sec.name = string_at(shstr, sec.name_offset);
    f.section_index.reserve(shnum);
    for (u32 i = 0; i < shnum; i++)
      f.section_index.emplace(f.sections[i].name, i); // the first of a name stays
    f.indexed_sections = shnum;
  }

  if (phnum) {
    if (f.phentsize != kPhdrSize)
      throw InputError("unexpected program header size");
    check_range(bytes, f.phoff, u64(phnum) * kPhdrSize, "program header table");
    for (u32 i = 0; i < phnum; i++) {
      const u8 *p = bytes.data() + f.phoff + u64(i) * kPhdrSize;
      ElfProgramHeader ph;
      ph.type = read_le<u32>(p);
      ph.flags = read_le<u32>(p + 4);
      ph.offset = read_le<u64>(p + 8);
      ph.vaddr = read_le<u64>(p + 16);
      ph.paddr = read_le<u64>(p + 24);
      ph.filesz = read_le<u64>(p + 32);
      ph.memsz = read_le<u64>(p + 40);
      ph.align = read_le<u64>(p + 48);
      f.segments.push_back(ph);
    }
  }
  return f;
}

std::string_view string_at(const ElfSection &strtab, u32 offset) {
  if (offset >= strtab.data.size()) {
    if (offset == 0)
      return {};
    throw InputError("string table offset out of range");
  }
  const char *p = reinterpret_cast<const char *>(strtab.data.data()) + offset;
  size_t max = strtab.data.size() - offset;
  size_t len = strnlen(p, max);
  if (len == max)
    throw InputError("unterminated string in string table");
  return {p, len};
}

std::vector<ElfSymbol> read_symbols(const ElfFile &file, const ElfSection &symtab) {
  if (symtab.data.size() % kSymSize)
    throw InputError("symbol table size is not a multiple of the entry size");
  if (symtab.link >= file.sections.size())
    throw InputError("symbol table links to a missing string table");
  const ElfSection &strtab = file.sections[symtab.link];
  size_t n = symtab.data.size() / kSymSize;
  std::vector<ElfSymbol> out(n);
  for (size_t i = 0; i < n; i++) {
    const u8 *p = symtab.data.data() + i * kSymSize;
    ElfSymbol &s = out[i];
    s.name_offset = read_le<u32>(p);
    s.info = p[4];
    s.other = p[5];
    s.shndx = read_le<u16>(p + 6);
    s.value = read_le<u64>(p + 8);
    s.size = read_le<u64>(p + 16);
    s.name = string_at(strtab, s.name_offset);
  }
  return out;
}

std::vector<ElfReloc> read_relocs(const ElfSection &sec) {
  bool rela = sec.type == SHT_RELA || sec.type == SHT_CUDA_MERC_RELA ||
              sec.type == SHT_CUDA_RESOLVED_RELA || sec.type == SHT_CUDA_MERC_RESOLVED_RELA;
  size_t es = rela ? kRelaSize : kRelSize;
  if (sec.data.size() % es)
    throw InputError("relocation section size is not a multiple of the entry size");
  size_t n = sec.data.size() / es;
  std::vector<ElfReloc> out(n);
  for (size_t i = 0; i < n; i++) {
    const u8 *p = sec.data.data() + i * es;
    u64 info = read_le<u64>(p + 8);
    out[i].offset = read_le<u64>(p);
    out[i].sym = static_cast<u32>(info >> 32);
    out[i].type = static_cast<u32>(info);
    out[i].addend = rela ? read_le<i64>(p + 16) : 0;
  }
  return out;
}

std::vector<ElfNote> read_notes(const ElfSection &sec) {
  std::vector<ElfNote> out;
  auto d = sec.data;
  size_t pos = 0;
  while (pos + 12 <= d.size()) {
    u32 namesz = read_le<u32>(&d[pos]);
    u32 descsz = read_le<u32>(&d[pos + 4]);
    u32 type = read_le<u32>(&d[pos + 8]);
    pos += 12;
    u64 name_end = pos + align_to(namesz, 4);
    if (name_end > d.size())
      throw InputError("note name extends past the section");
    u64 desc_end = name_end + align_to(descsz, 4);
    if (name_end + descsz > d.size())
      throw InputError("note descriptor extends past the section");
    ElfNote note;
    const char *nm = reinterpret_cast<const char *>(&d[pos]);
    note.name = std::string_view(nm, namesz ? strnlen(nm, namesz) : 0);
    note.type = type;
    note.desc = d.subspan(name_end, descsz);
    out.push_back(note);
    pos = std::min<u64>(desc_end, d.size());
  }
  return out;
}

void write_symbols(u8 *out, const std::vector<ElfSymbol> &syms) {
  for (size_t i = 0; i < syms.size(); i++) {
    u8 *p = out + i * kSymSize;
    const ElfSymbol &s = syms[i];
    write_le<u32>(p, s.name_offset);
    p[4] = s.info;
    p[5] = s.other;
    write_le<u16>(p + 6, s.shndx);
    write_le<u64>(p + 8, s.value);
    write_le<u64>(p + 16, s.size);
  }
}

void write_reloc(u8 *out, const ElfReloc &reloc, bool rela) {
  write_le<u64>(out, reloc.offset);
  write_le<u64>(out + 8, (u64(reloc.sym) << 32) | reloc.type);
  if (rela)
    write_le<i64>(out + 16, reloc.addend);
}

void write_relocs(u8 *out, const std::vector<ElfReloc> &relocs, bool rela) {
  size_t es = rela ? kRelaSize : kRelSize;
  for (size_t i = 0; i < relocs.size(); i++)
    write_reloc(out + i * es, relocs[i], rela);
}

std::span<const u8> encode_symbols(Arena &arena, const std::vector<ElfSymbol> &syms) {
  auto out = arena.alloc(syms.size() * kSymSize);
  write_symbols(out.data(), syms);
  return out;
}

std::span<const u8> encode_relocs(Arena &arena, const std::vector<ElfReloc> &relocs, bool rela) {
  auto out = arena.alloc(relocs.size() * (rela ? kRelaSize : kRelSize));
  write_relocs(out.data(), relocs, rela);
  return out;
}

// Layout rule (checked on ptxas and nvlink 13.0 outputs for sm_75..sm_121):
// sections are placed in index order, each at the next multiple of its
// sh_addralign; sections without file bytes get that position too but take
// no space. Exception: a section `shared` names shares the file offset of an
// earlier one and takes no bytes of its own (sm_100+: mercury/output.h).
// The section header table follows at the next multiple of 8; nvlink puts
// the program headers right after it.
// What this cannot reproduce: ptxas and nvlink leave unexplained zero slack
// after `.shstrtab`/`.strtab` (36 bytes after `.shstrtab` in every sm_100+
// file); sh_size does not record it.
void assign_offsets(ElfFile &file, OffsetStyle style, SharedOffsetRule shared) {
  u64 pos = kEhdrSize;
  for (size_t i = 1; i < file.sections.size(); i++) {
    ElfSection &sec = file.sections[i];
    if (size_t earlier = shared ? shared(file, i) : 0) {
      sec.offset = file.sections[earlier].offset;
      continue;
    }
    pos = align_to(pos, sec.addralign);
    sec.offset = pos;
    if (occupies_file_space(sec))
      pos += sec.size + sec.file_slack;
  }
  file.shoff = align_to(pos, 8);
  if (style == OffsetStyle::Linker)
    file.phoff = file.segments.empty() ? 0 : file.shoff + file.sections.size() * kShdrSize;
}

namespace {

u64 image_size(const ElfFile &f) {
  u64 end = kEhdrSize;
  for (auto &sec : f.sections)
    if (occupies_file_space(sec))
      end = std::max(end, sec.offset + sec.size);
  end = std::max<u64>(end, f.shoff + f.sections.size() * kShdrSize);
  if (!f.segments.empty())
    end = std::max<u64>(end, f.phoff + f.segments.size() * kPhdrSize);
  return end;
}

void encode_file_header(const ElfFile &f, u8 *h) {
  std::memcpy(h, f.ident.data(), 16);
  write_le<u16>(h + 16, f.type);
  write_le<u16>(h + 18, f.machine);
  write_le<u32>(h + 20, f.version);
  write_le<u64>(h + 24, f.entry);
  write_le<u64>(h + 32, f.phoff);
  write_le<u64>(h + 40, f.shoff);
  write_le<u32>(h + 48, f.flags);
  write_le<u16>(h + 52, f.ehsize);
  write_le<u16>(h + 54, f.phentsize);
  write_le<u16>(h + 56, static_cast<u16>(f.segments.size()));
  write_le<u16>(h + 58, f.shentsize);
  // A highest section index of SHN_LORESERVE or more: e_shnum 0, the count
  // in section 0's sh_size (set by the writer). (An image of exactly 0xff00
  // sections gets e_shnum 0xff00, as nvlink writes it.)
  write_le<u16>(h + 60, f.sections.size() > SHN_LORESERVE ? 0 : static_cast<u16>(f.sections.size()));
  write_le<u16>(h + 62, f.shstrndx);
}

void encode_section_header(const ElfSection &sec, u8 *s) {
  write_le<u32>(s, sec.name_offset);
  write_le<u32>(s + 4, sec.type);
  write_le<u64>(s + 8, sec.flags);
  write_le<u64>(s + 16, sec.addr);
  write_le<u64>(s + 24, sec.offset);
  write_le<u64>(s + 32, sec.size);
  write_le<u32>(s + 40, sec.link);
  write_le<u32>(s + 44, sec.info);
  write_le<u64>(s + 48, sec.addralign);
  write_le<u64>(s + 56, sec.entsize);
}

void encode_program_header(const ElfProgramHeader &ph, u8 *p) {
  write_le<u32>(p, ph.type);
  write_le<u32>(p + 4, ph.flags);
  write_le<u64>(p + 8, ph.offset);
  write_le<u64>(p + 16, ph.vaddr);
  write_le<u64>(p + 24, ph.paddr);
  write_le<u64>(p + 32, ph.filesz);
  write_le<u64>(p + 40, ph.memsz);
  write_le<u64>(p + 48, ph.align);
}

} // namespace

std::vector<u8> write_elf(const ElfFile &f) {
  std::vector<u8> out(image_size(f), 0);
  encode_file_header(f, out.data());
  for (size_t i = 0; i < f.sections.size(); i++) {
    const ElfSection &sec = f.sections[i];
    if (occupies_file_space(sec) && !sec.data.empty())
      std::memcpy(out.data() + sec.offset, sec.data.data(), sec.data.size());
    encode_section_header(sec, out.data() + f.shoff + i * kShdrSize);
  }
  for (size_t i = 0; i < f.segments.size(); i++)
    encode_program_header(f.segments[i], out.data() + f.phoff + i * kPhdrSize);
  return out;
}

ElfImage elf_image(const ElfFile &f) {
  ElfImage image;
  // The headers, in one owned buffer: file header, section headers,
  // program headers.
  image.owned.resize(kEhdrSize + f.sections.size() * kShdrSize + f.segments.size() * kPhdrSize);
  u8 *header = image.owned.data();
  u8 *shdrs = header + kEhdrSize;
  u8 *phdrs = shdrs + f.sections.size() * kShdrSize;
  encode_file_header(f, header);
  for (size_t i = 0; i < f.sections.size(); i++)
    encode_section_header(f.sections[i], shdrs + i * kShdrSize);
  for (size_t i = 0; i < f.segments.size(); i++)
    encode_program_header(f.segments[i], phdrs + i * kPhdrSize);

  // The non-empty pieces, in file order.
  std::vector<std::pair<u64, std::span<const u8>>> pieces;
  pieces.reserve(f.sections.size() + 3);
  pieces.emplace_back(0, std::span<const u8>(header, kEhdrSize));
  for (const ElfSection &sec : f.sections)
    if (occupies_file_space(sec) && !sec.data.empty())
      pieces.emplace_back(sec.offset, sec.data);
  if (!f.sections.empty())
    pieces.emplace_back(f.shoff, std::span<const u8>(shdrs, f.sections.size() * kShdrSize));
  if (!f.segments.empty())
    pieces.emplace_back(f.phoff, std::span<const u8>(phdrs, f.segments.size() * kPhdrSize));
  // (Usually already in file order: the sections' offsets follow the
  // section headers.)
  auto by_offset = [](const auto &a, const auto &b) { return a.first < b.first; };
  if (!std::is_sorted(pieces.begin(), pieces.end(), by_offset))
    std::stable_sort(pieces.begin(), pieces.end(), by_offset);
  for (size_t i = 1; i < pieces.size(); i++)
    if (pieces[i].first < pieces[i - 1].first + pieces[i - 1].second.size()) {
      // Overlapping pieces (sections sharing their bytes): the image decides.
      image.owned = write_elf(f);
      image.pieces.assign(1, image.owned);
      return image;
    }

  static const u8 kZeros[4096] = {};
  auto zeros = [&](u64 n) {
    for (; n > 0; n -= std::min<u64>(n, sizeof kZeros))
      image.pieces.emplace_back(kZeros, std::min<u64>(n, sizeof kZeros));
  };
  image.pieces.reserve(2 * pieces.size() + 1);
  u64 pos = 0;
  for (const auto &[offset, bytes] : pieces) {
    zeros(offset - pos);
    image.pieces.push_back(bytes);
    pos = offset + bytes.size();
  }
  zeros(image_size(f) - pos);
  return image;
}

} // namespace dlink
