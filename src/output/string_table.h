// A string table section's bytes (.strtab, .shstrtab) as nvlink builds
// them: names appended in the order given, a name stored once unless asked
// to store it again.
#pragma once

#include "dlink/common.h"

#include <cstring>
#include <functional>
#include <string_view>
#include <vector>

namespace dlink {

class StringTable {
public:
  // `names`: about how many names will be added (sizes the lookup table).
  explicit StringTable(size_t names = 0) {
    bytes_.push_back(0);
    size_t capacity = 16;
    while (capacity < 2 * names)
      capacity *= 2;
    slots_.resize(capacity);
  }
  u32 add(std::string_view s, u32 pad = 0, bool again = false) { return add_hashed(s, hash(s), pad, again); }
  // add() with the name's hash() computed beforehand (names can be hashed
  // in parallel; the bytes do not depend on the hash, only on the order of
  // the calls).
  u32 add_hashed(std::string_view s, size_t h, u32 pad = 0, bool again = false) {
    if (s.empty())
      return 0;
    Slot &slot = find(s, h);
    if (slot.offset && !again)
      return slot.offset;
    u32 off = static_cast<u32>(bytes_.size());
    bytes_.insert(bytes_.end(), s.begin(), s.end());
    bytes_.push_back(0);
    bytes_.insert(bytes_.end(), pad, 0);
    if (!slot.offset) { // (a name stored again keeps its first offset)
      slot = {off, tag(h)};
      if (++used_ * 2 > slots_.size())
        grow();
    }
    return off;
  }
  // An empty string stored as its own entry (a lone NUL byte).
  void add_empty() {
    if (empty_offset_ == 0) {
      empty_offset_ = static_cast<u32>(bytes_.size());
      bytes_.push_back(0);
    }
  }
  u32 empty_offset() const { return empty_offset_; }
  static size_t hash(std::string_view s) { return std::hash<std::string_view>{}(s); }
  // Brings the lookup slot of a name of hash `h` into the cache (a later
  // add_hashed of it then waits for no memory).
  void prefetch(size_t h) const { __builtin_prefetch(&slots_[h & (slots_.size() - 1)]); }
  // Room for `bytes` more bytes without reallocating.
  void reserve_bytes(size_t bytes) { bytes_.reserve(bytes_.size() + bytes); }
  u32 offset_of(std::string_view s) const {
    if (s.empty())
      return 0;
    return const_cast<StringTable *>(this)->find(s, hash(s)).offset;
  }
  const std::vector<u8> &bytes() const { return bytes_; }

private:
  // An open-addressing table (linear probing, at most half full): one
  // probe into a flat array of 8-byte slots per lookup, no node per name.
  // A slot holds where the name's first copy is in bytes_ (0: free; a
  // stored name never starts at offset 0, the table's leading NUL) and
  // 32 bits of its hash; the name itself is compared in bytes_.
  struct Slot {
    u32 offset = 0;
    u32 tag = 0;
  };
  static u32 tag(size_t h) { return static_cast<u32>(h >> 32) ^ static_cast<u32>(h); }

  bool holds(const Slot &slot, std::string_view s) const {
    return slot.offset + s.size() < bytes_.size() &&
           std::memcmp(bytes_.data() + slot.offset, s.data(), s.size()) == 0 &&
           bytes_[slot.offset + s.size()] == 0;
  }
  Slot &find(std::string_view s, size_t h) {
    size_t mask = slots_.size() - 1;
    u32 t = tag(h);
    for (size_t i = h & mask;; i = (i + 1) & mask)
      if (!slots_[i].offset || (slots_[i].tag == t && holds(slots_[i], s)))
        return slots_[i];
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    size_t mask = slots_.size() - 1;
    for (const Slot &slot : old) {
      if (!slot.offset)
        continue;
      // (Re-placed by the stored name's hash: names are unique here.)
      std::string_view name(reinterpret_cast<const char *>(bytes_.data() + slot.offset));
      size_t i = hash(name) & mask;
      while (slots_[i].offset)
        i = (i + 1) & mask;
      slots_[i] = slot;
    }
  }

  std::vector<u8> bytes_;
  std::vector<Slot> slots_;
  size_t used_ = 0;
  u32 empty_offset_ = 0;
};

} // namespace dlink
