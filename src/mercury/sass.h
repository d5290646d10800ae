// sm_100+ SASS instruction words: the one decoder of the fields that the
// re-finalization (refinalize.cpp, refinalize_fences.cpp) and the weak-copy
// frame merging (frame_merge.cpp) read and write. An instruction is 16 bytes,
// two little-endian 64-bit words; only the fields measured are named here
// (docs/notes/refinalization.md).
#pragma once

#include "dlink/common.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace dlink::sass {

constexpr size_t kInstructionSize = 16;
constexpr unsigned kNone = 7; // no scoreboard (wr/rd); PT as the predicate

// The hi bits below the scheduling controls (operands and modifiers).
constexpr u64 kOperandMask = (u64(1) << 41) - 1;
// The scheduling controls' scoreboard part: write (46-48), read (49-51) and
// wait mask (52-57).
constexpr unsigned kControlsShift = 46;

// Opcodes (the low 12 bits of the first word) named where measured.
namespace op {
constexpr unsigned kBra = 0x947;    // BRA, unpredicated form of the 0x147 family
constexpr unsigned kBssy = 0x945;   // BSSY
constexpr unsigned kExit = 0x94d;   // EXIT
constexpr unsigned kNop = 0x918;    // NOP
constexpr unsigned kMembar = 0x992; // MEMBAR
constexpr unsigned kLdc = 0xb82;    // LDC
constexpr unsigned kLdcu = 0x7ac;   // LDCU
constexpr unsigned kS2r = 0x919;    // S2R
} // namespace op

struct Instruction {
  u64 lo = 0, hi = 0;

  unsigned op() const { return unsigned(lo & 0xfff); }
  unsigned pred() const { return unsigned(lo >> 12 & 0xf); } // kNone: unpredicated
  unsigned wr() const { return unsigned(hi >> 46 & 7); }      // write scoreboard
  unsigned rd() const { return unsigned(hi >> 49 & 7); }      // read scoreboard
  unsigned wait() const { return unsigned(hi >> 52 & 63); }   // wait mask
  unsigned stall() const { return unsigned(hi >> 41 & 15); }  // stall cycles
  unsigned controls() const { return unsigned(hi >> kControlsShift & 0xfff); } // wr, rd, wait
  u64 operands_hi() const { return hi & kOperandMask; }
  unsigned dest() const { return unsigned(lo >> 16 & 0xff); } // first register operand

  // The same instruction with other scoreboard controls.
  Instruction with_controls(unsigned w, unsigned r, unsigned m) const {
    u64 h = hi & ~(u64(0xfff) << kControlsShift);
    h |= u64(w) << 46 | u64(r) << 49 | u64(m) << 52;
    return {lo, h};
  }
  Instruction with_stall(unsigned cycles) const {
    return {lo, (hi & ~(u64(15) << 41)) | u64(cycles & 15) << 41};
  }
};

inline Instruction read(std::span<const u8> code, size_t index) {
  const u8 *p = code.data() + index * kInstructionSize;
  return {read_le<u64>(p), read_le<u64>(p + 8)};
}

inline void write(const Instruction &f, u8 *out) {
  write_le<u64>(out, f.lo);
  write_le<u64>(out + 8, f.hi);
}

// Every whole instruction of `code`.
inline std::vector<Instruction> decode(std::span<const u8> code) {
  std::vector<Instruction> I(code.size() / kInstructionSize);
  for (size_t i = 0; i < I.size(); i++)
    I[i] = read(code, i);
  return I;
}

template <class Insn> std::vector<u8> encode(const std::vector<Insn> &I) {
  std::vector<u8> out(I.size() * kInstructionSize);
  for (size_t i = 0; i < I.size(); i++)
    write(I[i], out.data() + i * kInstructionSize);
  return out;
}

// Whether a wait mask covers a write (`wr`) or read (`rd`) scoreboard; the
// next instruction waiting on one needs 2 stall cycles before it
// (refinalize.cpp write_controls, sass_verify.cpp).
inline bool waits_on(unsigned wait, unsigned wr, unsigned rd) {
  return (wr != kNone && (wait >> wr & 1)) || (rd != kNone && (wait >> rd & 1));
}

// BRA in any form (0x147 family).
inline bool is_branch(const Instruction &f) { return (f.op() & 0x1ff) == 0x147; }
// CALL in any form (0x143, 0x144 families).
inline bool is_call(const Instruction &f) { return (f.op() & 0x1ff) == 0x143 || (f.op() & 0x1ff) == 0x144; }
inline bool is_membar(const Instruction &f) { return f.op() == op::kMembar; }
// An unpredicated EXIT.
inline bool is_exit(const Instruction &f) { return f.op() == op::kExit && f.pred() == kNone; }

// BRA: signed offset in 4-byte units, low byte in bits 16-23, the rest from
// bit 34, relative to the next instruction.
inline int64_t bra_offset(u64 lo) { return (int64_t(lo) >> 34) * 256 + int64_t(lo >> 16 & 0xff); }
inline std::optional<u64> set_bra_offset(u64 lo, int64_t off) {
  u64 out = (lo & ((u64(1) << 34) - 1) & ~(u64(0xff) << 16)) | (u64(off) & 0xff) << 16 |
            u64(off >> 8) << 34;
  if (bra_offset(out) != off)
    return std::nullopt;
  return out;
}
// The instruction index a BRA at `i` goes to, in code of `n` instructions;
// nullopt outside the code or between instructions.
inline std::optional<size_t> branch_target(size_t i, const Instruction &f, size_t n) {
  int64_t off = bra_offset(f.lo);
  int64_t t = int64_t(i) + 1 + off * 4 / int64_t(kInstructionSize);
  if (off % 4 != 0 || t < 0 || t >= int64_t(n))
    return std::nullopt;
  return size_t(t);
}

// BSSY: signed byte offset in bits 32-63, relative to the next instruction.
inline int64_t bssy_offset(u64 lo) { return int64_t(lo) >> 32; }
inline std::optional<u64> set_bssy_offset(u64 lo, int64_t off) {
  u64 out = (lo & 0xffffffffu) | u64(uint32_t(int32_t(off))) << 32;
  if (bssy_offset(out) != off)
    return std::nullopt;
  return out;
}

// fn(i) for every bit i set in words[0, n), in increasing order.
template <class F> void for_each_set_bit(const u64 *words, size_t n, F &&fn) {
  for (size_t k = 0; k < n; k++)
    for (u64 b = words[k]; b; b &= b - 1)
      fn(k * 64 + static_cast<size_t>(__builtin_ctzll(b)));
}

// Dataflow sets over a kernel's instructions (scoreboard pending sets in the
// re-finalization model and in the verifier): a fixed-size bit set, and a
// variable-latency producer (the instruction, its scoreboard and whether it
// is the read or the write scoreboard).
struct Bits {
  std::vector<u64> w;
  explicit Bits(size_t n = 0) : w((n + 63) / 64) {}
  bool test(size_t i) const { return w[i / 64] >> (i % 64) & 1; }
  void set(size_t i) { w[i / 64] |= u64(1) << (i % 64); }
  void reset(size_t i) { w[i / 64] &= ~(u64(1) << (i % 64)); }
  void clear() { std::fill(w.begin(), w.end(), u64(0)); }
  template <class F> void for_each_set(F &&fn) const { for_each_set_bit(w.data(), w.size(), fn); }
  bool operator==(const Bits &o) const { return w == o.w; }
  // (From a Bits or a BitRows row of the same width.)
  template <class Set> void operator|=(const Set &o) {
    for (size_t k = 0; k < w.size(); k++)
      w[k] |= o.w[k];
  }
};

// Equal-width bit sets, one per instruction, in one allocation (the
// dataflow's sets: a vector of Bits was one allocation per set). A row is a
// view with Bits' operations, assigned from and compared with a Bits.
class BitRows {
public:
  struct ConstRow {
    const u64 *w;
    size_t words;
    bool test(size_t i) const { return w[i / 64] >> (i % 64) & 1; }
    template <class F> void for_each_set(F &&fn) const { for_each_set_bit(w, words, fn); }
    bool operator==(const Bits &o) const { return std::equal(w, w + words, o.w.begin()); }
    operator Bits() const {
      Bits b;
      b.w.assign(w, w + words);
      return b;
    }
  };
  struct Row : ConstRow {
    u64 *data() const { return const_cast<u64 *>(this->w); }
    Row &operator=(const Row &) = delete; // (a copy of the bits, not of the view: from a Bits)
    const Row &operator=(const Bits &o) const {
      std::copy(o.w.begin(), o.w.end(), data());
      return *this;
    }
  };

  BitRows() = default;
  BitRows(size_t rows, size_t bits) : words_((bits + 63) / 64), w_(rows * words_) {}
  ConstRow operator[](size_t i) const { return {w_.data() + i * words_, words_}; }
  Row operator[](size_t i) { return {{w_.data() + i * words_, words_}}; }

private:
  size_t words_ = 0;
  std::vector<u64> w_;
};

struct Producer {
  size_t insn;
  bool read; // read scoreboard (else write)
  unsigned sb;
};

} // namespace dlink::sass
