// What a target family adds to writing the output. The writer's steps call
// these at fixed points; older targets add nothing (the defaults). The
// driver chooses the family's hooks once the target is known
// (select_output_hooks): sm_100+ brings the capsule-Mercury world's
// (src/mercury/output.cpp), whose sections the writer handles only through
// them.
#pragma once

#include "dlink/elf.h"
#include "output/synthetic.h"

#include <memory>

namespace dlink {

class OutputHooks {
public:
  virtual ~OutputHooks() = default;
  // Whether an empty relocation section stays (drop_empty_sections).
  virtual bool keeps_empty_reloc_section(Context &, const OutputSection *) const { return false; }
  // Once .symtab's order is set (order_sections): the family's own symbol order.
  virtual void order_symbols(Context &, OutputLayout &) const {}
  // Whether `sec` is the family's section: written by `family_table_section`
  // (its symbol table, or nothing: the section shares another's bytes), no
  // part of the program headers, given its sh_link/sh_info by `section_header`.
  virtual bool owns_section(const Context &, const OutputSection *) const { return false; }
  virtual std::unique_ptr<SyntheticSection> table_section(const Context &, OutputSection *) const {
    return nullptr;
  }
  virtual void section_header(const Context &, const OutputLayout &, const OutputSection *, ElfSection &) const {}
  // Whether section `sec`'s records and relocations name symbols by their
  // index in the family's own symbol table (own_symbol_index), not .symtab's.
  virtual bool names_own_symbols(const Context &, const OutputSection *) const { return false; }
  virtual u32 own_symbol_index(const Context &, const OutputSymbol *) const { return 0; }
  // ELF extended section numbering of the family's own symbol table: where
  // its index table goes (the layout's family_shndx fields), and the table.
  virtual void place_index_tables(Context &, OutputLayout &) const {}
  virtual ElfSection index_table(Context &, const OutputLayout &) const { return {}; }
  // Bytes that depend on the final layout (after the section indices are known).
  virtual void patch_sections(Context &, const OutputLayout &) const {}
  // Zero bytes the family leaves after the string tables.
  virtual void set_file_slack(Context &, const OutputLayout &, ElfFile &) const {}
  // assign_offsets() rule: sections that share an earlier section's offset.
  virtual SharedOffsetRule shared_offset_rule() const { return nullptr; }
};

// The hooks of the link's target family (the defaults when none was chosen).
const OutputHooks &output_hooks(const Context &ctx);
// Called by the driver once the target is known.
void select_output_hooks(Context &ctx, const OutputHooks *hooks);

} // namespace dlink
