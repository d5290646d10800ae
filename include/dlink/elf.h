// The ELF object model: one in-memory form for input cubins and the output.
//
// An ElfFile is a header, a vector of sections and a vector of program
// headers. Section bytes are spans into memory owned by an Arena (the mapped
// input file, or buffers synthesized by the linker). Symbols, relocations and
// notes are decoded on demand from their sections with the helpers below, and
// encoded back with the matching encode_* functions.
//
// Offsets are explicit: read_elf() records the offsets found in the file and
// write_elf() writes every section at its recorded offset, so a file read and
// written back is reproduced byte for byte. assign_offsets() computes the
// offsets the NVIDIA tools would choose (sections packed in index order at
// their alignment, section headers after the last section's bytes, program
// headers after the section headers).
#pragma once

#include "dlink/arena.h"
#include "dlink/common.h"
#include "dlink/name_hash.h"

#include <array>
#include <optional>
#include <string_view>
#include <vector>

namespace dlink {

// ELF constants used by cubins.
enum : u16 { ET_NONE = 0, ET_REL = 1, ET_EXEC = 2, EM_CUDA = 190 };

enum : u32 {
  SHT_NULL = 0,
  SHT_PROGBITS = 1,
  SHT_SYMTAB = 2,
  SHT_STRTAB = 3,
  SHT_RELA = 4,
  SHT_NOTE = 7,
  SHT_NOBITS = 8,
  SHT_REL = 9,
  SHT_SYMTAB_SHNDX = 18,
  SHT_LOPROC = 0x70000000,
  // NVIDIA section types (formats.md §3.2).
  SHT_CUDA_INFO = 0x70000000,
  SHT_CUDA_CALLGRAPH = 0x70000001,
  SHT_CUDA_PROTOTYPE = 0x70000002,
  SHT_CUDA_RESOLVED_RELA = 0x70000003,
  SHT_CUDA_GLOBAL = 0x70000007,
  SHT_CUDA_GLOBAL_INIT = 0x70000008,
  SHT_CUDA_LOCAL = 0x70000009,
  SHT_CUDA_SHARED = 0x7000000a,
  SHT_CUDA_RELOCINFO = 0x7000000b,
  SHT_CUDA_UFT = 0x7000000e,       // .nv.uft.rel.<f>: a unified function's stub
  SHT_CUDA_UFT_ENTRY = 0x70000011, // .nv.uft.entry: `.attribute(.unified)` functions
  SHT_CUDA_UDT = 0x70000012,       // .nv.udt: `.attribute(.unified)` variables' data
  SHT_CUDA_UDT_ENTRY = 0x70000014, // .nv.udt.entry: `.attribute(.unified)` variables
  SHT_CUDA_SHARED_RESERVED = 0x70000015,
  SHT_CUDA_CAPMERC_TEXT = 0x70000016,
  SHT_CUDA_CONSTANT = 0x70000064, // + bank number
  SHT_CUDA_CONSTANT_LAST = 0x70000064 + 31,
  SHT_CUDA_MERC_RELA = 0x70000082,
  SHT_CUDA_MERC_INFO = 0x70000083,
  SHT_CUDA_MERC_SYMTAB = 0x70000085,
  SHT_CUDA_COMPAT = 0x70000086,
  SHT_CUDA_MERC_RESOLVED_RELA = 0x70000088,
};

enum : u64 {
  SHF_WRITE = 0x1,
  SHF_ALLOC = 0x2,
  SHF_EXECINSTR = 0x4,
  SHF_INFO_LINK = 0x40,
  // NVIDIA's processor-specific flag of every `.nv.merc.*` and
  // `.nv.capmerc.*` section (sm_100+ Mercury world).
  SHF_CUDA_MERC = 0x10000000,
};

enum : u8 { STB_LOCAL = 0, STB_GLOBAL = 1, STB_WEAK = 2 };
enum : u8 {
  STT_NOTYPE = 0,
  STT_OBJECT = 1,
  STT_FUNC = 2,
  STT_SECTION = 3,
  STT_CUDA_TEXTURE = 10,
  STT_CUDA_SAMPLER = 11,
  STT_CUDA_SURFACE = 12,
  STT_CUDA_VARIABLE = 13,
};
// PTX .texref / .samplerref / .surfref globals (bound references).
inline bool is_bound_texture_type(u8 type) {
  return type == STT_CUDA_TEXTURE || type == STT_CUDA_SAMPLER || type == STT_CUDA_SURFACE;
}
enum : u8 {
  STO_CUDA_MANAGED = 0x04,
  STO_CUDA_ENTRY = 0x10,
  STO_CUDA_GLOBAL = 0x20,
  STO_CUDA_SHARED = 0x40,
  STO_CUDA_CONSTANT = 0x80,
  STO_CUDA_RESERVED_SHARED = 0xa0,
};
enum : u16 { SHN_UNDEF = 0, SHN_LORESERVE = 0xff00, SHN_ABS = 0xfff1, SHN_COMMON = 0xfff2, SHN_XINDEX = 0xffff };
enum : u32 { PT_LOAD = 1, PT_PHDR = 6 };
enum : u32 { PF_X = 1, PF_W = 2, PF_R = 4 };

constexpr size_t kEhdrSize = 64;
constexpr size_t kShdrSize = 64;
constexpr size_t kPhdrSize = 56;
constexpr size_t kSymSize = 24;
constexpr size_t kRelSize = 16;
constexpr size_t kRelaSize = 24;

struct ElfSection {
  std::string_view name;
  u32 name_offset = 0; // sh_name
  u32 type = SHT_NULL;
  u64 flags = 0;
  u64 addr = 0;
  u64 offset = 0;
  u64 size = 0;
  u32 link = 0;
  u32 info = 0;
  u64 addralign = 0;
  u64 entsize = 0;
  // File bytes. Empty for sections that occupy no file space; their size is
  // still `size`.
  std::span<const u8> data;
  // Zero bytes the writing tool leaves after the section's bytes without
  // counting them in sh_size (nvlink: 36 after .shstrtab on sm_100+).
  u64 file_slack = 0;
};

struct ElfProgramHeader {
  u32 type = 0;
  u32 flags = 0;
  u64 offset = 0;
  u64 vaddr = 0;
  u64 paddr = 0;
  u64 filesz = 0;
  u64 memsz = 0;
  u64 align = 0;
};

struct ElfSymbol {
  std::string_view name;
  u32 name_offset = 0;
  u8 info = 0;
  u8 other = 0;
  u16 shndx = 0;
  u64 value = 0;
  u64 size = 0;

  u8 bind() const { return info >> 4; }
  u8 type() const { return info & 0xf; }
  // A CUDA variable in shared memory (`__shared__`, defined or extern).
  bool is_shared_variable() const { return type() == STT_CUDA_VARIABLE && (other & 0xe0) == STO_CUDA_SHARED; }
  static u8 make_info(u8 bind, u8 type) { return static_cast<u8>((bind << 4) | (type & 0xf)); }
};

struct ElfReloc {
  u64 offset = 0;
  u32 sym = 0;
  u32 type = 0;
  i64 addend = 0;
};

struct ElfNote {
  std::string_view name;
  u32 type = 0;
  std::span<const u8> desc;
};

struct ElfFile {
  std::array<u8, 16> ident{};
  u16 type = ET_NONE;
  u16 machine = EM_CUDA;
  u32 version = 1;
  u64 entry = 0;
  u64 phoff = 0;
  u64 shoff = 0;
  u32 flags = 0;
  u16 ehsize = kEhdrSize;
  u16 phentsize = 0;
  u16 shentsize = kShdrSize;
  u16 shstrndx = 0;
  std::vector<ElfSection> sections;
  std::vector<ElfProgramHeader> segments;

  // Index of the first section with this name, if any (a hash lookup in
  // files read by read_elf, whose section names never change afterwards).
  std::optional<u32> find_section(std::string_view name) const;
  // Built by read_elf: section name -> first index; used while `sections`
  // still has the size it had then.
  NameMap<u32> section_index;
  size_t indexed_sections = 0;
  const ElfSection *section_named(std::string_view name) const;
  u32 sm() const { return (flags >> 8) & 0xff; }
};

// Whether a section's bytes are stored in the file. NOBITS, and the CUDA
// shared/global/reserved-shared sections of relocatable cubins, are not.
bool occupies_file_space(const ElfSection &sec);

// The 8-byte entries (a, b) of a relocatable cubin's .nv.callgraph or
// .nv.prototype section, in order, as fn(block, a, b). With `blocks` (a
// .nv.callgraph) an entry (0, -n) starts block n and is not passed on
// (1: a calls b; 2: a's address is taken, b its prototype string; 3: a has
// an indirect call site of prototype b; 4: b is an indirect-call target of
// a); block is 0 before the first marker and in a .nv.prototype.
template <class F>
void for_each_call_entry(const ElfSection &sec, bool blocks, F &&fn) {
  i64 block = 0;
  for (size_t k = 0; k + 8 <= sec.data.size(); k += 8) {
    u32 a = read_le<u32>(sec.data.data() + k);
    i32 b = read_le<i32>(sec.data.data() + k + 4);
    if (blocks && a == 0 && b < 0) {
      block = -i64{b}; // (i64: a marker of INT_MIN must not overflow)
      continue;
    }
    fn(block, a, b);
  }
}

// Parses `bytes` (which must outlive the result; normally arena-owned).
// Every offset and size is bounds-checked; malformed input throws InputError.
// With `small_sections`, the small sections' bytes (string and symbol
// tables, notes, .nv.info, call graph, prototype and compat sections) are
// copied there, and the section names (and, through the copied tables, the
// names read_symbols gives) point into the copies: names, records and call
// edges are then read without touching `bytes`, whose pages the linker
// releases once the input is merged (it copies code and data then).
ElfFile read_elf(std::span<const u8> bytes, Arena *small_sections = nullptr);

// True when the bytes start with an ELF header for EM_CUDA.
bool is_cuda_elf(std::span<const u8> bytes);

// Serializes `file` using the offsets it carries. Gaps are zero-filled.
std::vector<u8> write_elf(const ElfFile &file);

// The bytes write_elf() produces, as pieces in file order (headers, the
// sections' own bytes, zero padding) rather than copied into one buffer.
// The pieces point into `owned` and into the sections' bytes.
struct ElfImage {
  std::vector<std::span<const u8>> pieces;
  std::vector<u8> owned;
};
ElfImage elf_image(const ElfFile &file);

enum class OffsetStyle {
  Compiler, // ptxas: section header table last, no program headers
  Linker,   // nvlink: section headers, then program headers at the end
};

// The index of an earlier section whose file offset section `i` shares
// (taking no bytes of its own), or 0.
using SharedOffsetRule = size_t (*)(const ElfFile &file, size_t i);

// Packs sections in index order at their alignment and places the header
// tables as the chosen tool does. Updates sh_offset, e_shoff and e_phoff.
// `shared`: sections placed at an earlier one's offset (sm_100+ data copies:
// mercury_shared_offset, src/mercury/output.h).
void assign_offsets(ElfFile &file, OffsetStyle style, SharedOffsetRule shared = nullptr);

// Decoding and encoding of table sections.
std::vector<ElfSymbol> read_symbols(const ElfFile &file, const ElfSection &symtab);
std::vector<ElfReloc> read_relocs(const ElfSection &sec);
std::vector<ElfNote> read_notes(const ElfSection &sec);
std::string_view string_at(const ElfSection &strtab, u32 offset);

std::span<const u8> encode_symbols(Arena &arena, const std::vector<ElfSymbol> &syms);
std::span<const u8> encode_relocs(Arena &arena, const std::vector<ElfReloc> &relocs, bool rela);
// The same, written at `out` (room for syms.size() * kSymSize bytes, or
// relocs.size() * kRelaSize / kRelSize).
void write_symbols(u8 *out, const std::vector<ElfSymbol> &syms);
void write_relocs(u8 *out, const std::vector<ElfReloc> &relocs, bool rela);
// One relocation entry at `out` (kRelaSize or kRelSize bytes).
void write_reloc(u8 *out, const ElfReloc &reloc, bool rela);

} // namespace dlink
