// sm_100+ .debug_frame: the FDE nvlink writes into the first definer's slot of
// a weak function whose kept copy changed hands during the link
// (docs/notes/semantics-findings.md §15.2, §15.5).
//
// nvlink keeps the final holder's SASS call-frame program and adds the rows of
// the copies it replaced, taken from their Mercury FDEs (locations in Mercury
// bytes). A row lands where the kept copy's Mercury code has an instruction
// starting at that Mercury offset (at that instruction's SASS location); a row
// inside an instruction, past the end of the code, or where the kept copy has
// a row of its own, is dropped.
#pragma once

#include "dlink/common.h"

#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace dlink {

// One row of a call-frame program: its location (in code-alignment units)
// and the instructions that follow the advance to it, as encoded.
struct FrameRow {
  u64 loc = 0;
  std::vector<u8> ops;
};

// Splits a call-frame program into rows: the instructions before the first
// advance form a row at location 0 (possibly empty), every DW_CFA_advance_loc*
// starts a new row. Trailing DW_CFA_nop padding is dropped. nullopt for an
// instruction this reader does not know.
std::optional<std::vector<FrameRow>> decode_frame_rows(std::span<const u8> program);

// The Mercury size in bytes of one SASS instruction (its two little-endian
// words), where measured; nullopt otherwise.
std::optional<u64> mercury_instruction_size(u64 w0, u64 w1);

// The SASS byte offset of the instruction that starts at Mercury offset
// `merc` in the function whose SASS code is `text` and whose Mercury code is
// `merc_range` bytes long. `anchors` are known (SASS, Mercury) offset pairs
// of instruction starts (ascending; (0, 0) is implied). Returns:
//  * a value: the instruction found;
//  * nullopt in `*determined` = true: no instruction starts there;
//  * nullopt in `*determined` = false: sizes not known on the way.
std::optional<u64> mercury_to_sass_offset(u64 merc, std::span<const u8> text, u64 merc_range,
                                          const std::vector<std::pair<u64, u64>> &anchors,
                                          bool *determined);

// The kept copy's SASS FDE program with the replaced copies' rows added at
// the SASS locations given (in code-alignment units), re-encoded with
// DW_CFA_advance_loc4 around each added row and padded with DW_CFA_nop so that
// `header_size` + program is a multiple of 8.
std::vector<u8> merge_frame_rows(const std::vector<FrameRow> &kept, const std::vector<FrameRow> &added,
                                 u64 header_size);

} // namespace dlink
