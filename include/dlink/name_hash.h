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

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

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

} // namespace dlink
