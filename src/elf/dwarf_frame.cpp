#include "elf/dwarf_frame.h"

#include "dlink/common.h"

namespace dlink {

std::vector<FrameEntry> parse_frame_entries(const std::vector<u8> &bytes) {
  std::vector<FrameEntry> entries;
  u64 last_cie = 0;
  for (u64 pos = 0; pos + 8 <= bytes.size();) {
    u32 len32 = read_le<u32>(bytes.data() + pos);
    bool wide = len32 == 0xffffffffu;
    u64 header = wide ? 12 : 4;
    if (wide && pos + 20 > bytes.size())
      break;
    u64 len = wide ? read_le<u64>(bytes.data() + pos + 4) : len32;
    u64 id = wide ? read_le<u64>(bytes.data() + pos + 12) : read_le<u32>(bytes.data() + pos + 4);
    bool cie = wide ? id == ~u64{0} : id == 0xffffffffu;
    if (len == 0 || pos + header + len > bytes.size())
      break;
    if (cie)
      last_cie = pos;
    entries.push_back({pos, pos + header + len, cie, cie ? 0 : last_cie});
    pos += header + len;
  }
  return entries;
}

u64 frame_entry_end(const std::vector<u8> &bytes, u64 pos) {
  u32 len32 = read_le<u32>(bytes.data() + pos);
  return len32 == 0xffffffffu ? pos + 12 + read_le<u64>(bytes.data() + pos + 4) : pos + 4 + len32;
}

u64 frame_entry_length(const std::vector<u8> &bytes, u64 pos) {
  return frame_entry_end(bytes, pos) - pos;
}

} // namespace dlink
