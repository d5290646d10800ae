// SmallBytes: a byte vector that keeps up to 16 bytes in place.
//
// The merge copies every input EIATTR record's payload (4 to 16 bytes for
// nearly all of them: a symbol index and a value) into an InfoRecord; a link
// of a few hundred inputs has hundreds of thousands of records, and one heap
// block each was a measurable share of its time. Larger payloads (EXTERNS
// lists, parameter tables) get a heap block. The interface is the subset of
// std::vector<u8> the records use.
#pragma once

#include "dlink/common.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <span>

namespace dlink {

class SmallBytes {
public:
  SmallBytes() = default;
  SmallBytes(const SmallBytes &other) { assign(other.begin(), other.end()); }
  SmallBytes(SmallBytes &&other) noexcept { take(other); }
  SmallBytes &operator=(const SmallBytes &other) {
    if (this != &other)
      assign(other.begin(), other.end());
    return *this;
  }
  SmallBytes &operator=(SmallBytes &&other) noexcept {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  ~SmallBytes() { release(); }

  u8 *data() { return on_heap() ? heap_ : inline_; }
  const u8 *data() const { return on_heap() ? heap_ : inline_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  u8 *begin() { return data(); }
  u8 *end() { return data() + size_; }
  const u8 *begin() const { return data(); }
  const u8 *end() const { return data() + size_; }
  operator std::span<const u8>() const { return {data(), size_}; }

  // n copies of `value`.
  void assign(size_t n, u8 value) {
    reserve_exactly(n);
    size_ = static_cast<u32>(n);
    std::memset(data(), value, n);
  }

  template <std::input_iterator It>
  void assign(It first, It last) {
    size_t n = static_cast<size_t>(std::distance(first, last));
    reserve_exactly(n);
    size_ = static_cast<u32>(n);
    std::copy(first, last, data());
  }

  // New bytes are zero.
  void resize(size_t n) {
    if (n > capacity()) {
      SmallBytes grown;
      grown.reserve_exactly(n);
      if (size_)
        std::memcpy(grown.data(), data(), size_);
      grown.size_ = size_;
      *this = std::move(grown);
    }
    if (n > size_)
      std::memset(data() + size_, 0, n - size_);
    size_ = static_cast<u32>(n);
  }

private:
  static constexpr size_t kInline = 16;

  bool on_heap() const { return capacity_ > kInline; }
  size_t capacity() const { return capacity_; }

  // Room for n bytes; the old bytes are not kept.
  void reserve_exactly(size_t n) {
    if (n <= capacity())
      return;
    release();
    heap_ = new u8[n];
    capacity_ = static_cast<u32>(n);
  }

  void release() {
    if (on_heap())
      delete[] heap_;
    capacity_ = kInline;
    size_ = 0;
  }

  void take(SmallBytes &other) {
    size_ = other.size_;
    capacity_ = other.capacity_;
    if (other.on_heap())
      heap_ = other.heap_;
    else
      std::memcpy(inline_, other.inline_, kInline);
    other.capacity_ = kInline;
    other.size_ = 0;
  }

  u32 size_ = 0;
  u32 capacity_ = kInline;
  union {
    u8 inline_[kInline] = {};
    u8 *heap_;
  };
};

} // namespace dlink
