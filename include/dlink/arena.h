// Arena: owner of everything that lives for the whole link.
//
// Input file contents, synthesized section bytes and interned strings are
// allocated here and never freed individually; the object model refers to
// them through spans and string_views. Objects made with make<T>() are
// destroyed when the arena is.
#pragma once

#include "dlink/common.h"

#include <memory>
#include <string_view>
#include <vector>

namespace dlink {

class Arena {
public:
  Arena() = default;
  Arena(const Arena &) = delete;
  Arena &operator=(const Arena &) = delete;

  // Zero-initialised bytes owned by the arena.
  std::span<u8> alloc(size_t size) {
    auto block = std::make_unique<u8[]>(size ? size : 1);
    std::span<u8> out(block.get(), size);
    blocks_.push_back(std::move(block));
    return out;
  }

  std::span<const u8> copy(std::span<const u8> bytes) {
    auto out = alloc(bytes.size());
    if (!bytes.empty())
      std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
  }

  std::string_view save(std::string_view s) {
    auto out = alloc(s.size() + 1);
    if (!s.empty())
      std::memcpy(out.data(), s.data(), s.size());
    return {reinterpret_cast<const char *>(out.data()), s.size()};
  }

  template <typename T, typename... Args>
  T *make(Args &&...args) {
    auto holder = std::make_unique<Holder<T>>(std::forward<Args>(args)...);
    T *p = &holder->value;
    objects_.push_back(std::move(holder));
    return p;
  }

private:
  struct HolderBase {
    virtual ~HolderBase() = default;
  };
  template <typename T>
  struct Holder : HolderBase {
    template <typename... Args>
    explicit Holder(Args &&...args) : value(std::forward<Args>(args)...) {}
    T value;
  };

  std::vector<std::unique_ptr<u8[]>> blocks_;
  std::vector<std::unique_ptr<HolderBase>> objects_;
};

} // namespace dlink
