// Semantic comparison of two cubins, for dlink-diff and tests.
//
// diff_cubins() reports, in this order: ELF header fields that differ,
// program header differences, sections present in only one file (sections
// are matched by name; the k-th section of a name in A pairs with the k-th of
// that name in B), then a field-level explanation of the FIRST differing
// section pair (symbols, relocations, EIATTR records, notes, call graph,
// strings, or the first differing byte with hex context), then a one-line
// summary of every other differing section.
#pragma once

#include "dlink/elf.h"

#include <optional>
#include <ostream>
#include <span>

namespace dlink {

// Returns true when the files differ in anything the object model holds
// (headers, section headers, section bytes, program headers).
bool diff_cubins(const ElfFile &a, const ElfFile &b, std::ostream &out);

// First offset at which two byte strings differ (including a length
// difference), or nullopt when they are equal.
std::optional<u64> first_difference(std::span<const u8> a, std::span<const u8> b);

// Names the part of `file` that contains file offset `offset`: "ELF header",
// "section [3] .symtab + 0x18", "section header table", "program header
// table", or "padding after section [2] .strtab".
std::string describe_file_offset(const ElfFile &file, u64 offset);

} // namespace dlink
