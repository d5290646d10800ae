// The capsule-Mercury world's part of writing the output (sm_100+): the
// hooks write_output (writer.cpp) and the ELF layout call. Each is a no-op,
// or answers "nothing", for older targets.
#pragma once

#include "output/synthetic.h"
#include "output/target_hooks.h"

namespace dlink {

// Whether the capsule-Mercury twin of an empty SASS relocation section has
// relocations (the empty SASS section then stays).
bool mercury_twin_has_relocs(Context &ctx, const OutputSection *rel);

// The capsule-Mercury symbol table mirrors the symbols of .symtab that
// existed when the globals were fixed (layout.symbols, set):
// MercuryState::symbol_order, symbol_locals and each symbol's index there.
void order_mercury_symbols(Context &ctx, OutputLayout &layout);
// Its entries, with Mercury sections, types and sizes; a section index
// from SHN_LORESERVE on is SHN_XINDEX with the index in `xindex`
// (.nv.merc.symtab_shndx, 0 for the others, as many entries as .symtab
// has symbols at least; `extended`: some index needs it).
struct MercurySymbolEntries {
  std::vector<ElfSymbol> syms;
  std::vector<u32> xindex;
  bool extended = false;
  bool unmeasured = false; // an entry of a kind not measured (refused)
};
MercurySymbolEntries mercury_symbol_entries(const Context &ctx, const OutputLayout &layout);

// ELF extended section numbering (index_tables.cpp): whether and where the
// image has .symtab_shndx and .nv.merc.symtab_shndx (layout.extended,
// .family_shndx and their positions; sm_100+ only, a no-op before),
// refusing the shapes not reproduced.
void place_mercury_index_tables(Context &ctx, OutputLayout &layout);
// .nv.merc.symtab_shndx's header and bytes.
ElfSection mercury_section_index_table(Context &ctx, const OutputLayout &layout);

// Whether `sec` is the capsule-Mercury symbol table (.nv.merc.symtab).
bool is_mercury_symbol_table(const Context &ctx, const OutputSection *sec);
// The capsule-Mercury symbol table as a synthetic section (output/synthetic.h).
std::unique_ptr<SyntheticSection> mercury_symbol_table(OutputSection *sec);

// sh_link / sh_info of a capsule-Mercury section; false for other sections.
bool mercury_section_header(const Context &ctx, const OutputLayout &layout, const OutputSection *sec,
                            ElfSection &e);

// Bytes of capsule-Mercury sections that depend on the final layout: data
// copies sharing their SASS twin's bytes, each capsule's leading section
// index, the sm_110 reserved shared window's stale header copy.
void patch_mercury_sections(Context &ctx, const OutputLayout &layout);

// The unaccounted zero bytes nvlink leaves after .shstrtab and .strtab.
void set_mercury_file_slack(Context &ctx, const OutputLayout &layout, ElfFile &elf);

// assign_offsets() rule (dlink/elf.h SharedOffsetRule): the index of the
// earlier section whose file offset capsule-Mercury section `i` shares
// (taking no bytes of its own), or 0.
size_t mercury_shared_offset(const ElfFile &file, size_t i);

// The hooks above as the writer's OutputHooks (output/target_hooks.h): the
// driver chooses them for sm_100+ targets.
const OutputHooks &mercury_output_hooks();

} // namespace dlink
