// Per-target facts of the output format, as data, for the stages every
// target shares: a stage asks for the fact it needs (a bank's name, whether
// a record comes late), never which family the target belongs to. Only the
// driver asks that, to run the sm_100+ family's own stage (src/mercury/,
// with everything only it reads). Each fact was measured against nvlink;
// the notes say where.
#pragma once

#include "dlink/arch.h"
#include "dlink/reloc_types.h"

#include <array>
#include <string_view>

namespace dlink {

struct ArchFormat {
  // The output name of the merged user constant bank (.nv.constant3).
  std::string_view user_bank = ".nv.constant3";
  // The working name of a kernel's optimizer-constant bank
  // (.nv.constant2.<k>) from the merge to finish_sections: "<prefix>.<k>",
  // with an empty RELA section of its own (docs/notes/semantics-findings.md
  // §16); empty: the bank keeps its name and has no such section.
  std::string_view optimizer_bank_prefix;
  // The same for a kernel parameter bank that gets header-index slots of
  // bound textures, samplers and surfaces (§17); empty: the slots'
  // relocations go to the bank's .rel section.
  std::string_view header_index_bank_prefix;
  // Kernel parameter banks (.nv.constant0.<k>) are created after the merge,
  // once the globals are fixed, not when their first input is merged; their
  // .nv.info records (CBANK_PARAM_SIZE, PARAM_CBANK, SW_WAR) are re-added
  // then, in input order.
  bool late_parameter_banks = false;
  // Device functions' own constant banks are copied into the kernels after
  // layout (layout_memory has typed them), not at its start.
  bool function_banks_after_layout = false;
  // An empty input relocation section still creates its output section
  // (dropped when written unless the target's own stage keeps it).
  bool empty_reloc_sections_created = false;
  // An input without twin relocations gets the REL twin of a RELA section
  // also when none of its relocations has an addend (InputMerger::wants_rel_twin).
  bool rel_twin_when_no_addends = false;
  // Relocations of the line tables are kept in offset order (otherwise
  // most recent first, as every other section's).
  bool line_table_relocs_in_offset_order = false;
  // Symbols of the reserved shared window (.nv.reservedSmem.*) stay CUDA
  // variables with the window's offset (0x40) and size (0x400).
  bool reserved_window_symbols = false;
  // .nv_debug.shared spans the reserved window and the debug shared
  // variables even without -g; with -g, dynamic shared arrays' symbols are
  // placed after the reserved window.
  bool debug_shared_after_reserved_window = false;
  // A kernel's shared section (or .nv_debug.shared) holding only the
  // reserved window counts as empty for its section symbol.
  bool reserved_window_only_is_empty = false;
  // The per-kernel resource report (-v): shared memory without the reserved
  // window, no cmem[0] line and no header-index slot counts.
  bool short_resource_report = false;
  // Header-index slots start at the largest kernel bank's end aligned to
  // this; samplers' slots use this relocation type.
  u64 header_index_slot_align = 4;
  u32 sampler_slot_reloc = reloc_type::R_CUDA_SAMP_HEADER_INDEX;
  // In-place section renames leave zero bytes after .strtab (§15).
  bool rename_leaves_strtab_slack = false;
  // .nv.compat of a link without device code also holds record 0x0b.
  bool empty_compat_has_features_record = false;
  // A relocatable (-r) output has no program header entry size.
  bool relocatable_without_phentsize = false;
  // -r: code relocations against bound texture, sampler and surface
  // references are kept, their instructions given the header-index slot
  // base (mercury/relocatable_link.cpp); otherwise they are resolved with
  // S = 0 and dropped (docs/notes/relocatable.md).
  bool relocatable_keeps_texture_relocs = false;
  // -r: .debug_info's references to .debug_line (DW_AT_stmt_list) are
  // kept, not applied (gdebug_2tu with -r).
  bool relocatable_keeps_debug_info_line_relocs = false;
  // -r: the constant bank written into a constant-field relocation against
  // an undefined symbol (texture reference, undefined __constant__), and
  // the relocation types it was measured in (others are refused).
  u32 relocatable_undefined_bank = 28;
  std::array<u32, 2> relocatable_undefined_bank_types = {reloc_type::R_CUDA_CONST_FIELD19_40,
                                                         reloc_type::R_CUDA_CONST_FIELD21_38};
  // The low byte of e_flags (0x04 SASS; 0x02 the sm_100+ segment layout).
  u32 elf_flags_low = 0x04;
  // --preserve-relocs lists the debug sections' resolved relocations
  // (sm_100+: none; nvlink stops with "Internal error: reference to
  // deleted symbol" where DWARF names an unused __shared__ variable).
  bool preserved_debug_relocs = true;
};

inline const ArchFormat &arch_format(const Arch &arch) {
  static constexpr ArchFormat kBefore100{};
  static constexpr ArchFormat kFrom100{
      .user_bank = ".nv.constant.user",
      .optimizer_bank_prefix = ".nv.constant.optimizer",
      .header_index_bank_prefix = ".nv.constant.entry_image_header_indices",
      .late_parameter_banks = true,
      .function_banks_after_layout = true,
      .empty_reloc_sections_created = true,
      .rel_twin_when_no_addends = true,
      .line_table_relocs_in_offset_order = true,
      .reserved_window_symbols = true,
      .debug_shared_after_reserved_window = true,
      .reserved_window_only_is_empty = true,
      .short_resource_report = true,
      .header_index_slot_align = 16,
      .sampler_slot_reloc = reloc_type::R_CUDA_SAMP_HEADER_INDEX_0,
      .rename_leaves_strtab_slack = true,
      .empty_compat_has_features_record = true,
      .relocatable_without_phentsize = true,
      .relocatable_keeps_texture_relocs = true,
      .relocatable_keeps_debug_info_line_relocs = true,
      .relocatable_undefined_bank = 3,
      .relocatable_undefined_bank_types = {reloc_type::R_CUDA_CONST_FIELD22_37,
                                           reloc_type::R_CUDA_CONST_FIELD22_37},
      .elf_flags_low = 0x02,
      .preserved_debug_relocs = false,
  };
  return arch.sm >= 100 ? kFrom100 : kBefore100;
}

} // namespace dlink
