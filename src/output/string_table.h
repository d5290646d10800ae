// A string table section's bytes (.strtab, .shstrtab) as nvlink builds
// them: names appended in the order given, a name stored once unless asked
// to store it again.
#pragma once

#include "dlink/common.h"

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
    if (slot.used && !again)
      return slot.offset;
    u32 off = static_cast<u32>(bytes_.size());
    bytes_.insert(bytes_.end(), s.begin(), s.end());
    bytes_.push_back(0);
    bytes_.insert(bytes_.end(), pad, 0);
    if (!slot.used) { // (a name stored again keeps its first offset)
      slot = {s, off, true};
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
  // Room for `bytes` more bytes without reallocating.
  void reserve_bytes(size_t bytes) { bytes_.reserve(bytes_.size() + bytes); }
  u32 offset_of(std::string_view s) const {
    if (s.empty())
      return 0;
    const Slot &slot = const_cast<StringTable *>(this)->find(s, hash(s));
    return slot.used ? slot.offset : 0;
  }
  const std::vector<u8> &bytes() const { return bytes_; }

private:
  // An open-addressing table (linear probing, at most half full): one
  // probe into a flat array per lookup, no node per name.
  struct Slot {
    std::string_view name;
    u32 offset = 0;
    bool used = false;
  };

  Slot &find(std::string_view s, size_t h) {
    size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask)
      if (!slots_[i].used || slots_[i].name == s)
        return slots_[i];
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    for (const Slot &slot : old)
      if (slot.used)
        find(slot.name, hash(slot.name)) = slot;
  }

  std::vector<u8> bytes_;
  std::vector<Slot> slots_;
  size_t used_ = 0;
  u32 empty_offset_ = 0;
};

} // namespace dlink
