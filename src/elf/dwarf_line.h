// DWARF line-number programs (.debug_line, .nv_debug_line_sass; 32-bit
// DWARF versions 2-4 as ptxas writes them). The one reader of the units'
// headers: the merge's sequence filter (src/mercury/merge_debug.cpp) and the
// re-finalized kernels' address rewriting (src/mercury/refinalize_fences.cpp)
// both find their units through it.
#pragma once

#include "dlink/common.h"

#include <optional>
#include <span>

namespace dlink {

// The unit whose header starts at `start`.
struct LineUnit {
  u64 start;
  u64 end;     // after the unit (start + 4 + unit_length)
  u64 program; // the line-number program (after header_length)
  u8 min_inst_length;
  int8_t line_base;
  u8 line_range;
  u8 opcode_base;
  std::span<const u8> standard_opcode_lengths; // may end past `end`: check opcode_base
};

// nullopt where the fixed part of the header (15 bytes) or the unit does not
// fit in `bytes`, or the unit is in the 64-bit format.
std::optional<LineUnit> line_unit_at(std::span<const u8> bytes, u64 start);

// The unit that holds offset `at`: the units are walked from the start of
// the section; nullopt where one on the way does not parse.
std::optional<LineUnit> line_unit_holding(std::span<const u8> bytes, u64 at);

} // namespace dlink
