// sm_100+ weak-function FDE regeneration (frame_merge.h; semantics-findings.md §15.5).
#include "frame_merge.h"

#include "sass.h"

#include <algorithm>
#include <map>

namespace dlink {

namespace {

bool skip_uleb(std::span<const u8> p, size_t &pos, u64 *value = nullptr) {
  auto v = read_uleb128(p, pos, p.size());
  if (v && value)
    *value = *v;
  return v.has_value();
}

bool skip_block(std::span<const u8> p, size_t &pos) {
  u64 len = 0;
  if (!skip_uleb(p, pos, &len) || len > p.size() - pos)
    return false;
  pos += len;
  return true;
}

void put_advance4(std::vector<u8> &out, u64 delta) {
  out.push_back(0x04); // DW_CFA_advance_loc4
  for (int i = 0; i < 4; i++)
    out.push_back(static_cast<u8>(delta >> (8 * i)));
}

} // namespace

std::optional<std::vector<FrameRow>> decode_frame_rows(std::span<const u8> p) {
  std::vector<FrameRow> rows(1);
  size_t pending_nops = 0;
  u64 loc = 0;
  for (size_t pos = 0; pos < p.size();) {
    size_t start = pos;
    u8 op = p[pos++];
    u64 advance = 0;
    bool is_advance = false;
    switch (op >> 6) {
    case 1:
      advance = op & 0x3f, is_advance = true;
      break;
    case 2:
      if (!skip_uleb(p, pos))
        return std::nullopt;
      break;
    case 3:
      break;
    default:
      switch (op) {
      case 0x00: // nop
        pending_nops++;
        continue;
      case 0x02:
      case 0x03:
      case 0x04: {
        size_t n = op == 0x02 ? 1 : op == 0x03 ? 2 : 4;
        if (p.size() - pos < n)
          return std::nullopt;
        for (size_t i = 0; i < n; i++)
          advance |= u64{p[pos + i]} << (8 * i);
        pos += n, is_advance = true;
        break;
      }
      case 0x05: case 0x09: case 0x0c: case 0x11: case 0x12: case 0x14: case 0x15: case 0x2f:
        if (!skip_uleb(p, pos) || !skip_uleb(p, pos))
          return std::nullopt;
        break;
      case 0x06: case 0x07: case 0x08: case 0x0d: case 0x0e: case 0x13: case 0x2e:
        if (!skip_uleb(p, pos))
          return std::nullopt;
        break;
      case 0x0a: case 0x0b:
        break;
      case 0x0f:
        if (!skip_block(p, pos))
          return std::nullopt;
        break;
      case 0x10: case 0x16:
        if (!skip_uleb(p, pos) || !skip_block(p, pos))
          return std::nullopt;
        break;
      default:
        return std::nullopt;
      }
    }
    // Nops between instructions stay where they were.
    rows.back().ops.insert(rows.back().ops.end(), pending_nops, u8{0});
    pending_nops = 0;
    if (is_advance) {
      loc += advance;
      rows.push_back({loc, {}});
    } else {
      rows.back().ops.insert(rows.back().ops.end(), p.begin() + start, p.begin() + pos);
    }
  }
  return rows;
}

std::optional<u64> mercury_instruction_size(u64 w0, u64 w1) {
  // Measured per SASS opcode (low 12 bits) by placing a row at every Mercury
  // offset of a kept copy (semantics-findings.md §15.5): float, int and
  // double code, with spills, loops, branches, switches and calls.
  const u64 b = (w0 >> 32) & 0xff, c = w1 & 0xff; // second and third source registers
  switch (sass::Instruction{w0, w1}.op()) {
  case 0x202: case 0x209: case 0x20b: case 0x20c: case 0x212: case 0x220: case 0x221:
  case 0x229: case 0x245: case 0x2ca: case 0x302: case 0x305: case 0x308: case 0x311:
  case 0x355: case 0x356: case 0x7ac: case 0x802: case 0x941: case 0x945: case 0xb82:
    return 16;
  case 0x223: case 0x22b: case 0x387: case 0x421: case 0x423: case 0x429: case 0x431:
  case 0x803: case 0x80c: case 0x810: case 0x812: case 0x819: case 0x820: case 0x824:
  case 0x825: case 0x827: case 0x835: case 0x836: case 0x943: case 0x947: case 0x950:
  case 0x980: case 0x983:
    return 32;
  case 0x210: // IADD3: 16 bytes with RZ as both other sources, 32 with neither
    if (b == 0xff && c == 0xff)
      return 16;
    if (b != 0xff && c != 0xff)
      return 32;
    return std::nullopt;
  case 0x224: // IMAD: by its modifier bits; only the forms measured
    switch ((w1 >> 16) & 0xffff) {
    case 0x078e:
      return 16;
    case 0x000e:
    case 0x008e:
      return 32;
    }
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

std::optional<u64> mercury_to_sass_offset(u64 merc, std::span<const u8> text, u64 merc_range,
                                          const std::vector<std::pair<u64, u64>> &anchors_in,
                                          bool *determined) {
  *determined = false;
  if (merc > merc_range) {
    *determined = true;
    return std::nullopt;
  }
  std::vector<std::pair<u64, u64>> anchors = anchors_in;
  anchors.emplace_back(0, 0);
  std::sort(anchors.begin(), anchors.end());
  anchors.erase(std::unique(anchors.begin(), anchors.end()), anchors.end());
  auto size_at = [&](u64 s) -> std::optional<u64> {
    if (s % sass::kInstructionSize || s + sass::kInstructionSize > text.size())
      return std::nullopt;
    sass::Instruction f = sass::read(text, s / sass::kInstructionSize);
    return mercury_instruction_size(f.lo, f.hi);
  };
  // The anchors around `merc` (both lists are in code order).
  const std::pair<u64, u64> *lo = nullptr, *hi = nullptr;
  for (const auto &a : anchors) {
    if (a.second <= merc && (!lo || a.second >= lo->second))
      lo = &a;
    if (a.second > merc && (!hi || a.second < hi->second))
      hi = &a;
  }
  if (!lo)
    return std::nullopt;
  if (lo->second == merc) {
    *determined = true;
    return lo->first;
  }
  // Where every size between the anchors is known, they must add up.
  if (hi) {
    if (hi->first <= lo->first)
      return std::nullopt;
    u64 sum = 0;
    bool all = true;
    for (u64 s = lo->first; s < hi->first && all; s += 16)
      if (auto n = size_at(s))
        sum += *n;
      else
        all = false;
    if (all && sum != hi->second - lo->second)
      return std::nullopt;
  }
  // Forward from the anchor below.
  {
    u64 s = lo->first, m = lo->second;
    bool ok = true;
    while (m < merc) {
      auto n = size_at(s);
      if (!n || (hi && s >= hi->first)) {
        ok = false;
        break;
      }
      m += *n, s += 16;
    }
    if (ok) {
      *determined = true;
      if (m == merc)
        return s;
      return std::nullopt;
    }
  }
  // Backward from the anchor above.
  if (hi) {
    u64 s = hi->first, m = hi->second;
    while (m > merc) {
      if (s <= lo->first)
        return std::nullopt;
      s -= 16;
      auto n = size_at(s);
      if (!n || *n > m)
        return std::nullopt;
      m -= *n;
    }
    *determined = true;
    if (m == merc)
      return s;
  }
  return std::nullopt;
}

std::vector<u8> merge_frame_rows(const std::vector<FrameRow> &kept, const std::vector<FrameRow> &added,
                                 u64 header_size) {
  // Kept rows win at their locations (the row at 0 only where it has
  // instructions); an added row elsewhere comes in as a row of its own.
  std::map<u64, const FrameRow *> extra;
  for (const FrameRow &r : added) {
    bool taken = std::any_of(kept.begin(), kept.end(), [&](const FrameRow &k) {
      return k.loc == r.loc && (r.loc != 0 || !k.ops.empty() || &k != &kept.front());
    });
    if (!taken)
      extra[r.loc] = &r; // a later copy's row replaces an earlier one's
  }
  std::vector<u8> out;
  u64 loc = 0;
  auto emit = [&](const FrameRow &r, bool first) {
    if (!first) {
      put_advance4(out, r.loc - loc);
      loc = r.loc;
    }
    out.insert(out.end(), r.ops.begin(), r.ops.end());
  };
  auto it = extra.begin();
  if (it != extra.end() && it->first == 0) {
    emit(*it->second, true);
    ++it;
  }
  for (size_t i = 0; i < kept.size(); i++) {
    for (; it != extra.end() && it->first < kept[i].loc; ++it)
      emit(*it->second, false);
    emit(kept[i], i == 0);
  }
  for (; it != extra.end(); ++it)
    emit(*it->second, false);
  while ((header_size + out.size()) % 8)
    out.push_back(0);
  return out;
}

} // namespace dlink
