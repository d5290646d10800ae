// Numbers for objects met by address (output symbols of a call graph, say):
// each distinct pointer gets the next number the first time it is seen.
// Open addressing with linear probing over a flat array, at most half full;
// no node per entry, so numbering 100,000 callers costs no allocation
// beyond the two arrays. The numbers depend only on the order of intern()
// calls, never on addresses.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace dlink {

template <class T>
class PointerIndex {
public:
  // The pointer's number, given the next one if new; and whether it was.
  std::pair<std::uint32_t, bool> intern(const T *p) {
    if (2 * (keys_.size() + 1) > slots_.size())
      grow();
    std::uint32_t &slot = probe(p);
    if (slot)
      return {slot - 1, false};
    keys_.push_back(p);
    slot = static_cast<std::uint32_t>(keys_.size());
    return {slot - 1, true};
  }
  // Reads only: callers may look up concurrently.
  std::optional<std::uint32_t> find(const T *p) const {
    if (keys_.empty())
      return std::nullopt;
    std::uint32_t slot = const_cast<PointerIndex *>(this)->probe(p);
    return slot ? std::optional<std::uint32_t>(slot - 1) : std::nullopt;
  }
  // The pointers in the order they were numbered.
  const std::vector<const T *> &keys() const { return keys_; }
  size_t size() const { return keys_.size(); }

private:
  static size_t hash(const T *p) {
    auto v = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p));
    v ^= v >> 29;
    v *= 0xbf58476d1ce4e5b9ull;
    return static_cast<size_t>(v ^ (v >> 32));
  }
  std::uint32_t &probe(const T *p) {
    size_t mask = slots_.size() - 1;
    for (size_t i = hash(p) & mask;; i = (i + 1) & mask)
      if (!slots_[i] || keys_[slots_[i] - 1] == p)
        return slots_[i];
  }
  void grow() {
    size_t capacity = std::max<size_t>(64, 2 * slots_.size());
    slots_.assign(capacity, 0);
    size_t mask = capacity - 1;
    for (std::uint32_t n = 0; n < keys_.size(); n++) {
      size_t i = hash(keys_[n]) & mask;
      while (slots_[i])
        i = (i + 1) & mask;
      slots_[i] = n + 1;
    }
  }

  std::vector<const T *> keys_;
  std::vector<std::uint32_t> slots_; // number + 1; 0: free
};

} // namespace dlink
