// Numbers for keys met in some order (functions of a call graph, say): each
// distinct key gets the next number the first time it is seen. Open
// addressing with linear probing over a flat array, at most half full; no
// node per entry, so numbering 100,000 functions costs no allocation beyond
// the arrays. The numbers depend only on the order of intern() calls.
//
// Keys are hashed by `Hash`, or by the caller (intern/find with a hash: one
// computed in parallel beforehand); each key's hash is kept, so growing the
// table and comparing keys rehash nothing.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace dlink {

template <class K, class Hash>
class KeyIndex {
public:
  // The key's number, given the next one if new; and whether it was.
  std::pair<std::uint32_t, bool> intern(const K &k) { return intern(k, Hash{}(k)); }
  std::pair<std::uint32_t, bool> intern(const K &k, size_t h) {
    if (2 * (keys_.size() + 1) > slots_.size())
      grow();
    std::uint32_t &slot = probe(k, h);
    if (slot)
      return {slot - 1, false};
    keys_.push_back(k);
    hashes_.push_back(h);
    slot = static_cast<std::uint32_t>(keys_.size());
    return {slot - 1, true};
  }
  // Reads only: callers may look up concurrently.
  std::optional<std::uint32_t> find(const K &k) const { return find(k, Hash{}(k)); }
  std::optional<std::uint32_t> find(const K &k, size_t h) const {
    if (keys_.empty())
      return std::nullopt;
    std::uint32_t slot = const_cast<KeyIndex *>(this)->probe(k, h);
    return slot ? std::optional<std::uint32_t>(slot - 1) : std::nullopt;
  }
  // The keys in the order they were numbered.
  const std::vector<K> &keys() const { return keys_; }
  size_t size() const { return keys_.size(); }

private:
  std::uint32_t &probe(const K &k, size_t h) {
    size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask)
      if (!slots_[i] || (hashes_[slots_[i] - 1] == h && keys_[slots_[i] - 1] == k))
        return slots_[i];
  }
  void grow() {
    size_t capacity = std::max<size_t>(64, 2 * slots_.size());
    slots_.assign(capacity, 0);
    size_t mask = capacity - 1;
    for (std::uint32_t n = 0; n < keys_.size(); n++) {
      size_t i = hashes_[n] & mask;
      while (slots_[i])
        i = (i + 1) & mask;
      slots_[i] = n + 1;
    }
  }

  std::vector<K> keys_;
  std::vector<size_t> hashes_;
  std::vector<std::uint32_t> slots_; // number + 1; 0: free
};

// A pointer's bits mixed (addresses share their low and high bits).
struct PointerHash {
  template <class T>
  size_t operator()(const T *p) const {
    auto v = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p));
    v ^= v >> 29;
    v *= 0xbf58476d1ce4e5b9ull;
    return static_cast<size_t>(v ^ (v >> 32));
  }
};

// Objects numbered by address (the numbers never depend on the addresses).
template <class T>
using PointerIndex = KeyIndex<const T *, PointerHash>;

} // namespace dlink
