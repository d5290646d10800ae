#include "elf/dwarf_line.h"

#include <algorithm>

namespace dlink {

std::optional<LineUnit> line_unit_at(std::span<const u8> bytes, u64 start) {
  if (start + 15 > bytes.size())
    return std::nullopt;
  u32 unit_length = read_le<u32>(bytes.data() + start);
  if (unit_length >= 0xfffffff0u)
    return std::nullopt; // (64-bit DWARF: not written by ptxas)
  LineUnit u;
  u.start = start;
  u.end = start + 4 + unit_length;
  if (u.end > bytes.size())
    return std::nullopt;
  u.program = start + 10 + read_le<u32>(bytes.data() + start + 6);
  u.min_inst_length = bytes[start + 10];
  u.line_base = static_cast<int8_t>(bytes[start + 12]);
  u.line_range = bytes[start + 13];
  u.opcode_base = bytes[start + 14];
  u64 lengths = std::min<u64>(u.opcode_base ? u.opcode_base - 1 : 0, bytes.size() - (start + 15));
  u.standard_opcode_lengths = bytes.subspan(start + 15, lengths);
  return u;
}

std::optional<LineUnit> line_unit_holding(std::span<const u8> bytes, u64 at) {
  for (u64 start = 0; start < bytes.size();) {
    auto u = line_unit_at(bytes, start);
    if (!u)
      return std::nullopt;
    if (at < u->end)
      return u;
    start = u->end;
  }
  return std::nullopt;
}

} // namespace dlink
