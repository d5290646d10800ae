// DWARF .debug_frame: its CIEs and FDEs (32- and 64-bit formats). The one
// reader of the entry headers: the merge's edits (src/link/debug_edit.cpp),
// the CIE pointers of reloc/relocate.cpp and the re-finalized kernels' FDEs
// (src/mercury/refinalize_fences.cpp) all read entries through it.
#pragma once

#include "dlink/common.h"

#include <optional>
#include <span>
#include <vector>

namespace dlink {

// The header of the entry at `pos`: its length field, the header's size
// (4, or 12 in the 64-bit format) and the CIE id / CIE pointer field.
// nullopt where the header itself does not fit.
struct FrameEntryHeader {
  u64 length;
  u64 header;
  u64 id; // a CIE's id (all ones), an FDE's CIE pointer
  bool cie;
};
std::optional<FrameEntryHeader> frame_entry_header(std::span<const u8> bytes, u64 pos);

// One CIE or FDE of a .debug_frame section (32- or 64-bit format).
struct FrameEntry {
  u64 start, end;
  bool cie;
  u64 cie_ref = 0; // FDE: offset of the CIE before it
  bool keep = true;
};

// The entries in section order; stops at the first entry that does not fit.
std::vector<FrameEntry> parse_frame_entries(std::span<const u8> bytes);

// The end (offset after) and the length with its header of the entry at `pos`.
u64 frame_entry_end(std::span<const u8> bytes, u64 pos);
u64 frame_entry_length(std::span<const u8> bytes, u64 pos);

// Offset of the last CIE that starts before `offset`.
std::optional<u64> preceding_cie(std::span<const u8> bytes, u64 offset);
// The same over a list of CIE offsets made once (cie_offsets: every CIE in
// order, up to the first zero-length or truncated entry), for callers that
// ask for many offsets of one section.
std::vector<u64> cie_offsets(std::span<const u8> bytes);
std::optional<u64> preceding_cie(const std::vector<u64> &cies, u64 offset);

// The code alignment factor of the 64-bit-format CIE at `pos` (after its
// augmentation string).
std::optional<u64> cie_code_alignment(std::span<const u8> bytes, u64 pos);

} // namespace dlink
