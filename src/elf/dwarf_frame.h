// DWARF .debug_frame: the list of CIEs and FDEs (32- and 64-bit formats).
#pragma once

#include "dlink/common.h"

#include <optional>
#include <vector>

namespace dlink {

// One CIE or FDE of a .debug_frame section (32- or 64-bit format).
struct FrameEntry {
  u64 start, end;
  bool cie;
  u64 cie_ref = 0; // FDE: offset of the CIE before it
  bool keep = true;
};

// The entries in section order; stops at the first entry that does not fit.
std::vector<FrameEntry> parse_frame_entries(const std::vector<u8> &bytes);

// The end (offset after) and the length with its header of the entry at `pos`.
u64 frame_entry_end(const std::vector<u8> &bytes, u64 pos);
u64 frame_entry_length(const std::vector<u8> &bytes, u64 pos);

} // namespace dlink
