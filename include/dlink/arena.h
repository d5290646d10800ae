// Arena: owner of everything that lives for the whole link.
//
// Input file contents, synthesized section bytes and interned strings are
// allocated here and never freed individually; the object model refers to
// them through spans and string_views. Objects made with make<T>() are
// destroyed when the arena is.
//
// Small allocations (names, symbols, sections) are carved out of 64 KiB
// chunks, so a link of thousands of sections makes a few hundred calls to
// malloc instead of hundreds of thousands; larger ones (file contents) get
// a block of their own.
#pragma once

#include "dlink/common.h"

#include <cstring>
#include <memory>
#include <new>
#include <string_view>
#include <type_traits>
#include <vector>

namespace dlink {

class Arena {
public:
  Arena() = default;
  Arena(const Arena &) = delete;
  Arena &operator=(const Arena &) = delete;
  ~Arena() {
    for (auto it = destructors_.rbegin(); it != destructors_.rend(); ++it)
      it->destroy(it->object);
  }

  // Zero-initialised bytes owned by the arena.
  std::span<u8> alloc(size_t size) {
    std::span<u8> out = alloc_uninitialized(size);
    if (size)
      std::memset(out.data(), 0, size);
    return out;
  }

  // Bytes owned by the arena, for the caller to fill entirely (file
  // contents).
  std::span<u8> alloc_uninitialized(size_t size) {
    return {static_cast<u8 *>(allocate(size ? size : 1, 1)), size};
  }

  std::span<const u8> copy(std::span<const u8> bytes) {
    auto out = alloc_uninitialized(bytes.size());
    if (!bytes.empty())
      std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
  }

  // A NUL-terminated copy of `s`.
  std::string_view save(std::string_view s) {
    auto *out = static_cast<char *>(allocate(s.size() + 1, 1));
    if (!s.empty())
      std::memcpy(out, s.data(), s.size());
    out[s.size()] = '\0';
    return {out, s.size()};
  }

  template <typename T, typename... Args>
  T *make(Args &&...args) {
    T *p = new (allocate(sizeof(T), alignof(T))) T(std::forward<Args>(args)...);
    if constexpr (!std::is_trivially_destructible_v<T>)
      destructors_.push_back({p, [](void *o) { static_cast<T *>(o)->~T(); }});
    return p;
  }

private:
  static constexpr size_t kChunkSize = 64 * 1024;
  static constexpr size_t kLargeSize = 4 * 1024; // allocations this big get their own block

  void *allocate(size_t size, size_t align) {
    if (size >= kLargeSize) {
      blocks_.push_back(std::make_unique_for_overwrite<u8[]>(size + align));
      u8 *p = blocks_.back().get();
      return p + (-reinterpret_cast<uintptr_t>(p) & (align - 1));
    }
    size_t pad = -reinterpret_cast<uintptr_t>(next_) & (align - 1);
    if (!next_ || pad + size > static_cast<size_t>(end_ - next_)) {
      blocks_.push_back(std::make_unique_for_overwrite<u8[]>(kChunkSize));
      next_ = blocks_.back().get();
      end_ = next_ + kChunkSize;
      pad = -reinterpret_cast<uintptr_t>(next_) & (align - 1);
    }
    u8 *p = next_ + pad;
    next_ = p + size;
    return p;
  }

  struct Destructor {
    void *object;
    void (*destroy)(void *);
  };

  std::vector<std::unique_ptr<u8[]>> blocks_;
  std::vector<Destructor> destructors_;
  u8 *next_ = nullptr;
  u8 *end_ = nullptr;
};

} // namespace dlink
