// Human-readable renderings of cubin structures, shared by dlink-dump,
// dlink-diff and tests.
//
// Every function here is total: malformed input (bad string offsets, short
// note descriptors, symbol indices out of range) is rendered as "?" or as an
// explanatory string instead of throwing, so callers can show as much of a
// broken file as possible. Names follow formats.md (§3.2 section types, §6.1
// symbol fields, §5.6–5.9 notes, call graph and prototypes).
#pragma once

#include "dlink/eiattr.h"
#include "dlink/elf.h"

#include <optional>
#include <string>
#include <vector>

namespace dlink {

// ELF header fields.
std::string elf_type_name(u16 type);           // "EXEC"
std::string describe_e_flags(u32 flags);       // "sm_90, low byte 0x04 (SASS), cuinfo index 6"
std::string segment_type_name(u32 type);       // "LOAD"
std::string segment_flags_string(u32 flags);   // "R E"

// Section header fields.
std::string section_type_name(u32 type);       // "CUDA_INFO", "CUDA_CONSTANT3"
std::string section_flags_string(u64 flags);   // "WAI p"

// Symbol fields.
std::string symbol_bind_name(u8 bind);         // "GLOBAL"
std::string symbol_type_name(u8 type);         // "FUNC", "CUDA_VARIABLE"
std::string symbol_other_string(u8 other);     // "DEFAULT|ENTRY"
std::string section_index_name(const ElfFile &file, u16 shndx); // "UNDEF", ".text.f"

// Symbols of a symtab section, or empty when it cannot be decoded.
std::vector<ElfSymbol> try_read_symbols(const ElfFile &file, const ElfSection &symtab);
// Namer for EIATTR rendering: index -> symbol name ("" when unknown).
SymbolNamer make_symbol_namer(std::vector<ElfSymbol> syms);
// The symbol table a section links to (sh_link), if it is one.
const ElfSection *linked_symtab(const ElfFile &file, const ElfSection &sec);

// One-line renderings used by the dump and the diff.
std::string format_symbol(const ElfFile &file, const ElfSymbol &sym);
std::string format_reloc(const ElfReloc &rel, bool rela, const SymbolNamer &sym_name);
std::string format_eirecord(const EiRecord &rec, bool compat, const SymbolNamer &sym_name);

bool is_reloc_section(const ElfSection &sec);
bool is_rela_section(const ElfSection &sec);
bool is_eiattr_section(const ElfSection &sec);
bool is_symtab_section(const ElfSection &sec);

// Notes (formats.md §5.6, §5.7).
struct CuInfo {
  u16 version = 0;
  u16 sm = 0;
  u32 cuda_version = 0; // CUDA version * 10
};
struct TkInfo {
  u32 version = 0;
  std::string object_name, tool_name, tool_version, tool_branch, command_line;
};
std::optional<CuInfo> decode_cuinfo(const ElfNote &note);
std::optional<TkInfo> decode_tkinfo(const ElfNote &note);
// Lines describing one note (no trailing newlines).
std::vector<std::string> format_note(const ElfNote &note);

// Lines describing `.nv.callgraph` / `.nv.prototype` contents.
std::vector<std::string> format_callgraph(const ElfFile &file, const ElfSection &sec);
std::vector<std::string> format_prototypes(const ElfFile &file, const ElfSection &sec);

// Classic 16-bytes-per-line hex dump; `base` is added to the printed offsets.
std::vector<std::string> hex_dump(std::span<const u8> bytes, u64 base = 0);

} // namespace dlink
