#include "elf/dwarf_frame.h"

#include <algorithm>

namespace dlink {

std::optional<FrameEntryHeader> frame_entry_header(std::span<const u8> bytes, u64 pos) {
  if (pos + 8 > bytes.size())
    return std::nullopt;
  u32 len32 = read_le<u32>(bytes.data() + pos);
  if (len32 == 0xffffffffu) {
    if (pos + 20 > bytes.size())
      return std::nullopt;
    u64 id = read_le<u64>(bytes.data() + pos + 12);
    return FrameEntryHeader{read_le<u64>(bytes.data() + pos + 4), 12, id, id == ~u64{0}};
  }
  u32 id = read_le<u32>(bytes.data() + pos + 4);
  return FrameEntryHeader{len32, 4, id, id == 0xffffffffu};
}

std::vector<FrameEntry> parse_frame_entries(std::span<const u8> bytes) {
  std::vector<FrameEntry> entries;
  u64 last_cie = 0;
  for (u64 pos = 0; pos + 8 <= bytes.size();) {
    auto h = frame_entry_header(bytes, pos);
    if (!h || h->length == 0 || pos + h->header + h->length > bytes.size())
      break;
    if (h->cie)
      last_cie = pos;
    entries.push_back({pos, pos + h->header + h->length, h->cie, h->cie ? 0 : last_cie});
    pos += h->header + h->length;
  }
  return entries;
}

u64 frame_entry_end(std::span<const u8> bytes, u64 pos) {
  u32 len32 = read_le<u32>(bytes.data() + pos);
  return len32 == 0xffffffffu ? pos + 12 + read_le<u64>(bytes.data() + pos + 4) : pos + 4 + len32;
}

u64 frame_entry_length(std::span<const u8> bytes, u64 pos) {
  return frame_entry_end(bytes, pos) - pos;
}

std::vector<u64> cie_offsets(std::span<const u8> bytes) {
  std::vector<u64> cies;
  u64 pos = 0;
  while (pos + 8 <= bytes.size()) {
    auto h = frame_entry_header(bytes, pos);
    if (!h)
      break;
    if (h->cie)
      cies.push_back(pos);
    if (h->length == 0 || h->length > bytes.size())
      break;
    pos += h->header + h->length;
  }
  return cies;
}

std::optional<u64> preceding_cie(const std::vector<u64> &cies, u64 offset) {
  auto it = std::lower_bound(cies.begin(), cies.end(), offset);
  if (it == cies.begin())
    return std::nullopt;
  return *--it;
}

std::optional<u64> preceding_cie(std::span<const u8> bytes, u64 offset) {
  return preceding_cie(cie_offsets(bytes), offset);
}

std::optional<u64> cie_code_alignment(std::span<const u8> bytes, u64 pos) {
  if (pos + 21 > bytes.size() || read_le<u32>(bytes.data() + pos) != 0xffffffffu)
    return std::nullopt;
  u64 end = std::min<u64>(frame_entry_end(bytes, pos), bytes.size());
  u64 p = pos + 21; // length, CIE id, version
  while (p < end && bytes[p] != 0)
    p++; // augmentation string
  size_t q = p + 1;
  return read_uleb128(bytes, q, end);
}

} // namespace dlink
