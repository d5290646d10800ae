// Hash maps keyed by names (symbol and section names), hashed with xxHash's
// XXH3: the symbol table and the by-name indexes of the output model are the
// linker's hottest lookups, and names share long prefixes (mangled
// templates, ".text.", "__cuda_sm...") that XXH3 hashes in a few cycles per
// 16 bytes. Lookups are transparent: a map keyed by std::string can be
// queried with a std::string_view without building a string.
//
// Iteration order of these maps is never used for output: every order the
// output depends on is kept in vectors (docs/design.md).
#pragma once

#include <xxhash.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace dlink {

// (Deliberately not noexcept: libstdc++ keeps each node's hash code only for
// a hasher that may throw (or one it does not deem fast). Without the kept
// code every lookup hashes the key of each node it passes again, to see
// whether the node still belongs to its bucket: on the output's 100,000
// section names that was a third of find_section's time.)
struct NameHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view name) const {
    return static_cast<std::size_t>(XXH3_64bits(name.data(), name.size()));
  }
};

// Keys point into the arena or the inputs (they outlive the map).
template <class V>
using NameMap = std::unordered_map<std::string_view, V, NameHash, std::equal_to<>>;
using NameSet = std::unordered_set<std::string_view, NameHash, std::equal_to<>>;

// Keys owned by the map.
template <class V>
using OwnedNameMap = std::unordered_map<std::string, V, NameHash, std::equal_to<>>;

// A name index for the output model's largest tables (every section by
// name): open addressing with linear probing, at most half full, over a
// flat array of 8-byte slots (32 bits of the hash, the entry's position);
// the entries themselves are a dense vector. A lookup that misses, the
// common case when the merge asks whether a section exists before
// creating it, reads one slot and no entry. Keys point into the arena or
// the inputs (they outlive the map).
template <class V>
class FlatNameMap {
public:
  // nullptr when absent.
  V *find(std::string_view key) { return entries_.empty() ? nullptr : find(key, NameHash{}(key)); }
  // find() with the key's NameHash computed beforehand.
  V *find(std::string_view key, size_t h) {
    if (entries_.empty())
      return nullptr;
    Slot &slot = probe(key, h);
    return slot.entry ? &entries_[slot.entry - 1].value : nullptr;
  }
  const V *find(std::string_view key) const { return const_cast<FlatNameMap *>(this)->find(key); }
  bool contains(std::string_view key) const { return find(key) != nullptr; }

  // Adds the key if absent (a present key keeps its value); whether it did.
  bool emplace(std::string_view key, V value) { return try_emplace(key, std::move(value)).second; }

  // Adds the key if absent; the key's value (the one held for a present
  // key) and whether it was added. The pointer stays valid until the next
  // insertion or removal.
  std::pair<V *, bool> try_emplace(std::string_view key, V value) {
    return try_emplace(key, NameHash{}(key), std::move(value));
  }
  // try_emplace() with the key's NameHash computed beforehand.
  std::pair<V *, bool> try_emplace(std::string_view key, size_t h, V value) {
    if (2 * (entries_.size() + 1) > slots_.size())
      rehash(std::max<size_t>(16, 2 * slots_.size()));
    Slot &slot = probe(key, h);
    if (slot.entry)
      return {&entries_[slot.entry - 1].value, false};
    entries_.push_back({key, std::move(value), h});
    slot = {tag(h), static_cast<std::uint32_t>(entries_.size())};
    return {&entries_.back().value, true};
  }

  // Removes the key if present.
  void erase(std::string_view key) {
    if (entries_.empty())
      return;
    size_t h = NameHash{}(key);
    Slot *slot = &probe(key, h);
    if (!slot->entry)
      return;
    std::uint32_t gone = slot->entry;
    // Backward-shift deletion: later slots of the run move up where their
    // home allows, so no probe ever meets a hole inside its run.
    size_t mask = slots_.size() - 1, i = static_cast<size_t>(slot - slots_.data());
    for (size_t j = (i + 1) & mask; slots_[j].entry; j = (j + 1) & mask) {
      size_t home = entries_[slots_[j].entry - 1].hash & mask;
      if (((j - home) & mask) >= ((j - i) & mask)) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i] = {};
    // The last entry takes the removed one's place in the dense vector.
    if (gone != entries_.size()) {
      Entry &last = entries_.back();
      probe(last.key, last.hash).entry = gone;
      entries_[gone - 1] = std::move(last);
    }
    entries_.pop_back();
  }

  void reserve(size_t n) {
    entries_.reserve(n);
    size_t want = 16;
    while (want < 2 * n)
      want *= 2;
    if (want > slots_.size())
      rehash(want);
  }
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }

private:
  struct Slot {
    std::uint32_t tag = 0;
    std::uint32_t entry = 0; // position in entries_ + 1; 0: free
  };
  struct Entry {
    std::string_view key;
    V value;
    size_t hash;
  };
  static std::uint32_t tag(size_t h) { return static_cast<std::uint32_t>(h >> 32); }

  // The slot holding `key`, or the free slot where it would go.
  Slot &probe(std::string_view key, size_t h) {
    size_t mask = slots_.size() - 1;
    std::uint32_t t = tag(h);
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      Slot &slot = slots_[i];
      if (!slot.entry || (slot.tag == t && entries_[slot.entry - 1].key == key))
        return slot;
    }
  }
  void rehash(size_t capacity) {
    slots_.assign(capacity, Slot{});
    size_t mask = capacity - 1;
    for (size_t e = 0; e < entries_.size(); e++) {
      size_t i = entries_[e].hash & mask;
      while (slots_[i].entry)
        i = (i + 1) & mask;
      slots_[i] = {tag(entries_[e].hash), static_cast<std::uint32_t>(e + 1)};
    }
  }

  std::vector<Slot> slots_;
  std::vector<Entry> entries_;
};

} // namespace dlink
