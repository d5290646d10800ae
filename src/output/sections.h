// The steps of write_output (writer.cpp) that decide what the image holds:
// which sections stay and in what order, which symbols and in what order,
// the string tables; and, at the end, the ELF headers.
#pragma once

#include "output/output_layout.h"

namespace dlink {

// Drops what ends up empty (relocation sections, .nv.compat, .nv.info) and
// gives a link without inputs its .nv.compat records.
void drop_empty_sections(Context &ctx);

// The final section order and indices (layout.order, .extended,
// .creation_index).
void order_sections(Context &ctx, OutputLayout &layout);

// .symtab's symbols in order (layout.symbols, .num_locals) and their
// indices; the capsule-Mercury table's (sm_100+).
void order_symbols(Context &ctx, OutputLayout &layout);

// .shstrtab and .strtab as nvlink fills them (the callgraph adds more).
void build_string_tables(Context &ctx, OutputLayout &layout);

// The ELF file header fields of ctx.output_elf.
void build_file_header(Context &ctx, const OutputLayout &layout);

// ctx.output_elf's section headers (and .symtab_shndx), from the sections
// whose bytes are final.
void build_section_headers(Context &ctx, const OutputLayout &layout);

// An extended section index table (SHT_SYMTAB_SHNDX) named `name` for the
// symbol table at `symtab_index`, holding `entries`.
// How many sections of the skeleton (.shstrtab, .strtab, .symtab, the notes,
// .nv.info, .nv.compat) lead the creation order: nvlink's own section
// numbers count one more section after them (docs/notes/semantics-findings.md §22).
u32 skeleton_section_count(const OutputModel &out);

ElfSection section_index_table(Context &ctx, std::string_view name, u32 name_offset, u32 symtab_index,
                               u64 flags, const std::vector<u32> &entries);

// File offsets and, for an executable, the program headers.
void build_program_headers(const Context &ctx, ElfFile &elf, const std::vector<OutputSection *> &order);

} // namespace dlink
