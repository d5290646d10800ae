// Fixed-width integer aliases and little-endian helpers shared by every stage.
//
// Cubins are little-endian ELF64 files. Fields are always read and written
// through these memcpy-based helpers, never by casting pointers into a
// buffer, so unaligned input is safe and sanitizers stay quiet.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>

namespace dlink {

using u8 = std::uint8_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i32 = std::int32_t;
using i64 = std::int64_t;

template <typename T>
inline T read_le(const u8 *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
inline void write_le(u8 *p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

inline u64 align_to(u64 value, u64 align) {
  if (align <= 1)
    return value;
  return (value + align - 1) / align * align;
}

// Reads an unsigned LEB128 number (DWARF) at `pos`, not past `end`, and moves
// `pos` after it. nullopt when it runs past `end` or beyond 64 bits.
inline std::optional<u64> read_uleb128(std::span<const u8> data, size_t &pos, size_t end) {
  u64 v = 0;
  for (unsigned shift = 0; pos < end && pos < data.size() && shift < 64; shift += 7) {
    u8 b = data[pos++];
    v |= u64{b & 0x7fu} << shift;
    if (!(b & 0x80))
      return v;
  }
  return std::nullopt;
}

// Thrown by readers for malformed input. The driver turns it into an
// nvlink-style diagnostic; it never escapes main().
class InputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace dlink
