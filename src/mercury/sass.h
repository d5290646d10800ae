// sm_100+ SASS instruction words: the one decoder of the fields that the
// re-finalization (refinalize.cpp, refinalize_fences.cpp) and the weak-copy
// frame merging (frame_merge.cpp) read and write. An instruction is 16 bytes,
// two little-endian 64-bit words; only the fields measured are named here
// (docs/notes/refinalization.md).
#pragma once

#include "dlink/common.h"

#include <algorithm>
#include <bitset>
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

// The opcode family (low 9 bits) of control transfers: 0x140-0x15f.
inline bool is_control(const Instruction &f) { return ((f.op() & 0x1ff) >> 5) == 0xa; }

// BRX (0x949): an indirect branch through a jump table in the kernel's bank.
// The graph does not read the table: a BRX may go to any instruction of the
// kernel, which only adds paths (and so pending producers) in both codes.
inline bool is_brx(const Instruction &f) { return f.op() == 0x949; }

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

// Registers as operand bytes name them (0-254; 255 is RZ, or URZ).
using RegisterSet = std::bitset<256>;

// The most registers an operand starting at register `v` can cover: four
// from a multiple of four (128 bits), two from an even one, else one.
inline unsigned aligned_span(unsigned v) { return v % 4 == 0 ? 4 : v % 2 == 0 ? 2 : 1; }

// Whether bits 16-23 of `f` are a general-register (R) destination: the IMAD
// family (bits 0-8 0x024, every form 0x224, 0x424, 0x824, 0xc24, 0xe24; the
// uniform UIMAD is 0x2a4). Measured on the sm_100+ golden inputs: that byte
// is read back as an STG address or data register (bits 24-31, 32-39) 1912
// times, in every form (refinalization.md, "The verifier").
inline bool writes_general_register(const Instruction &f) { return (f.op() & 0x1ff) == 0x024; }

// Operand bytes that hold no register, measured on ptxas's
// code of the sm_100/sm_120 real-world corpus: 0x81c has predicate fields
// only (bits 16-23 take 10 values such as 0x80, 0xf2, 0x8f; bits 24-39 are
// always 0; bits 64-71 0x70 and 0x77 in 8,087 of 8,998); bits 64-71 of 0x407
// and 0x487 are 0 or 1 in all 4,318 (beside an immediate of 1 or -1 in most).
inline bool has_no_register_operands(const Instruction &f) { return f.op() == 0x81c; }
inline bool bits_64_71_not_a_register(const Instruction &f) { return f.op() == 0x407 || f.op() == 0x487; }

// Whether a register operand of `f` may name a register of `regs` (general
// registers, or uniform ones: an LDCU's result, an STG's descriptor): the
// register itself, or the first register of a 64-bit (even) or 128-bit
// (multiple of four) operand that covers one. The register operands are the
// bytes where ptxas's waits find a result's first reader (measured on
// ptxas's code of the sm_100/sm_120 real-world corpus: of 89,355 waits for a
// single load whose instruction names the load's result in some byte,
// 89,332 name it in bits 16-23, 24-31, 32-39 or 64-71; the other 23 are waits
// ptxas places early, at an instruction that reads none of it):
// * the loads LD, LDG, LDL, LDS (0x980, 0x981, 0x983, 0x984): the result
//   (bits 16-23) and the address (24-31); bits 32-39 a uniform register
//   (ptxas waits there for LDCU results only), bits 64-71 always 0;
// * the stores STS and STG (0x388, 0x986): the address (24-31) and the data
//   (32-39); bits 16-23 always 0, bits 64-71 always 0 for STS and a uniform
//   register (the descriptor; 52 waits for an LDCU there) for STG;
// * for uniform registers, also the address of a load or store (which may
//   be a uniform one);
// * every other instruction: bits 16-23, 24-31, 64-71 and, outside the
//   immediate forms 0x4xx and 0x8xx, 32-39 (of 22,000 first readers in 0x8xx
//   forms, 3 name the result in bits 32-39 only, where an immediate starts).
// (Always 0: in all of the 700,000 loads and stores of those links.) A
// general-register destination byte (writes_general_register) names no
// uniform register, and neither does an instruction of the 0x2xx, 0x3xx,
// 0x4xx or 0x8xx forms outside the uniform datapath (bit 7 of the opcode
// clear). Measured on that code, for every LDCU alone on its index: between
// it and ptxas's wait for it, 4,899 such instructions name its register in
// bits 16-23, 24-31, 32-39 or 64-71 (ptxas does not wait there: those are
// general registers); at ptxas's wait, 27 do and 76 do not (early waits).
// 0x856 is the exception: 73 of its instances name the register at ptxas's
// wait, none before it. (no_uniform_operand: those forms; reads_uniform in
// refinalize_prefix.cpp decodes the others exactly.)
inline bool no_uniform_operand(const Instruction &f) {
  const unsigned op = f.op(), family = op >> 8;
  return (family == 2 || family == 3 || family == 4 || family == 8) && !(op & 0x80) && op != 0x856;
}

// How many registers an operand byte of an opcode names at most, where
// measured (operand_widths.inc): narrower than the aligned span
// operand_names_register assumes otherwise (4 from a multiple of 4, 2 from an
// even register). Measured as ptxas's own waits show it: where a byte's span
// reaches a pending load result that no byte names, ptxas waits for the load
// if and only if the operand reads or overwrites it; 30 or more such cases
// without a wait make a width. (HeCBench ddbp's
// img_integration_kernel at sm_100/sm_120: the ISETP 0x20c of R8 at 0x120
// does not read the S2R's R10, so nvlink's wait for it at 0x130 passes the
// verifier.)
struct OperandWidth {
  u16 op;
  u8 byte;
  u8 width;
};
inline constexpr OperandWidth kOperandWidths[] = {
#include "operand_widths.inc"
};
// The same for uniform registers, against pending LDCU results (0xc24's
// uniform operand in bits 32-39 names a pair at times: width 2).
inline constexpr OperandWidth kUniformOperandWidths[] = {
#include "operand_widths_uniform.inc"
};

// The width of byte `byte` (2, 3, 4 or 8) of opcode `op` in the general or
// the uniform register file; 4 where not measured.
inline unsigned measured_width(unsigned op, unsigned byte, bool uniform = false) {
  for (const OperandWidth &w : uniform ? std::span<const OperandWidth>(kUniformOperandWidths)
                                       : std::span<const OperandWidth>(kOperandWidths))
    if (w.op == op && w.byte == byte)
      return w.width;
  return 4;
}

// The operand bytes (3: bits 24-31, 4: bits 32-39, 8: bits 64-71) in which
// `f` reads uniform registers, as a bit mask; nullopt for a form not decoded.
// Measured on ptxas's code of the sm_100/sm_120 real-world corpus (docs/notes/
// refinalization.md, "Uniform operands of the general forms"): LDC, LDCU, S2R,
// S2UR, BSSY and BSYNC read none; a load reads one in bits 32-39, an STG in
// bits 64-71, an STS none (other 0x380-0x38f stores: not decoded); the general
// datapath's forms (no_uniform_operand) none, 0x856 not decoded; the uniform
// datapath (bit 7 of the opcode) in bits 24-31 and 64-71 in the immediate and
// constant forms 0x4xx and 0x8xx, also bits 32-39 in the register form 0x2xx,
// bits 32-39 in 0x3xx, 0xcxx and 0xexx.
inline std::optional<unsigned> uniform_operand_bytes(const Instruction &f) {
  const unsigned op = f.op(), family = op >> 8, form = op >> 9;
  constexpr unsigned b3 = 1u << 3, b4 = 1u << 4, b8 = 1u << 8;
  if (op == 0x7ac || op == 0xb82 || op == 0x9c3 || op == 0x919 || op == 0x945 || op == 0x941 || op == 0x388)
    return 0u;
  if (op == 0x980 || op == 0x981 || op == 0x983 || op == 0x984)
    return b4;
  if (op == 0x986)
    return b8;
  if (op >= 0x380 && op <= 0x38f)
    return std::nullopt;
  if (no_uniform_operand(f))
    return 0u;
  if (op == 0x856)
    return std::nullopt;
  if (family == 4 || family == 8)
    return b3 | b8;
  if (family == 2)
    return b3 | b4 | b8;
  if (form == 1 || form == 6 || form == 7)
    return b4;
  return std::nullopt;
}

inline bool operand_names_register(const Instruction &f, const RegisterSet &regs, bool uniform) {
  const unsigned op = f.op(), family = op >> 8;
  auto covers = [&](unsigned v, unsigned byte = 0) {
    unsigned span = aligned_span(v);
    if (byte)
      span = std::min(span, measured_width(op, byte, uniform));
    for (unsigned r = v; r < v + span && r < regs.size(); r++)
      if (regs.test(r))
        return true;
    return false;
  };
  const unsigned b2 = f.dest(), b3 = unsigned(f.lo >> 24 & 0xff), b4 = unsigned(f.lo >> 32 & 0xff),
                 b8 = unsigned(f.hi & 0xff);
  if (op == 0x980 || op == 0x981 || op == 0x983 || op == 0x984)
    return uniform ? covers(b3) || covers(b4) : covers(b2) || covers(b3);
  if (op == 0x388 || op == 0x986)
    return covers(b3) || covers(b4) || (uniform && op == 0x986 && covers(b8));
  if (uniform && no_uniform_operand(f))
    return false;
  if (has_no_register_operands(f))
    return false;
  // A uniform register: the destination unless it is a general one, and the
  // bytes the form reads uniform registers in, where decoded.
  if (uniform && !is_control(f))
    if (auto bytes = uniform_operand_bytes(f))
      return (!writes_general_register(f) && covers(b2, 2)) || (*bytes >> 3 & 1 && covers(b3, 3)) ||
             (*bytes >> 4 & 1 && covers(b4, 4)) || (*bytes >> 8 & 1 && covers(b8, 8));
  return (!(uniform && writes_general_register(f)) && covers(b2, 2)) || covers(b3, 3) ||
         (family != 4 && family != 8 && covers(b4, 4)) || (!bits_64_71_not_a_register(f) && covers(b8, 8));
}

// Nothing but the stack-pointer load names R1 as a register operand (bits
// 16-23, 24-31, 64-71, and 32-39 outside the immediate forms 0x4xx/0x8xx,
// where bits 32-63 hold an immediate), and nothing calls: its result is never
// read, so its scoreboard can go.
inline bool r1_unused(const std::vector<Instruction> &I) {
  for (size_t i = 1; i < I.size(); i++) {
    const Instruction &f = I[i];
    if (is_call(f))
      return false;
    if (is_control(f) && !is_brx(f))
      continue; // offsets, no register operands (a BRX's target register is one)
    unsigned form = f.op() >> 9 & 7;
    // 0x402 and 0x482 take a 64-bit immediate in bits 24-87, their only
    // operand besides the register (pair) of bits 16-23: measured on the
    // golden and real-world inputs, doubles such as 1.0, pi/2 and ln 2
    // (0x3ff921fb54442d18, 0x3fe62e42fefa39ef), NTT's modulus
    // 0xffffffff00000001 and repeated byte patterns (0x55...). 0x407 has a
    // register in bits 24-31 (RZ in most) and is not one of them (its bits
    // 64-71 are no register either: bits_64_71_not_a_register).
    if (f.op() == 0x402 || f.op() == 0x482) {
      if ((f.lo >> 16 & 0xff) == 1)
        return false;
      continue;
    }
    if (has_no_register_operands(f))
      continue;
    if ((f.lo >> 16 & 0xff) == 1 || (f.lo >> 24 & 0xff) == 1 || (!bits_64_71_not_a_register(f) && (f.hi & 0xff) == 1))
      return false;
    if (form != 2 && form != 4 && (f.lo >> 32 & 0xff) == 1)
      return false;
  }
  return true;
}

// Whether a wait for a load's result or a store's sources may move past `f`
// as far as memory order and synchronization go: not a control transfer,
// not a barrier (0xb1d family), and no memory operation (0x180-0x1bf
// families: stores, atomics, fences) other than a load (LD, LDG, LDL, LDS,
// LDC, LDCU). ptxas waits for a shared load before a shared atomic that
// names none of its registers (HeCBench hbc's bc_kernel at sm_100, 0x3060).
inline bool passes_pending_memory(const Instruction &f) {
  const unsigned fam = f.op() & 0x1ff;
  if (is_control(f) || fam == 0x11d)
    return false;
  if (fam < 0x180 || fam > 0x1bf)
    return true;
  return fam == 0x180 || fam == 0x181 || fam == 0x182 || fam == 0x183 || fam == 0x184 || fam == 0x1ac;
}

// The registers whose use a producer's scoreboard guards, where the operands
// show them (nullopt for the other producers), per register file:
// * a write scoreboard: the result. S2R writes one register, S2UR (0x9c3)
//   one uniform register; LDC and LDCU give the width in bits 72-79 (0x08
//   one register, 0x0a two, 0x0c four: refinalization.md), LDCU's in the
//   uniform file; LDG (0x981) and LDS
//   (0x984) in bits 73-75 (0-4 up to 32 bits, 5 64 bits, 6 128 bits;
//   measured on the sm_100 real-world corpus: 5 only with an even
//   destination, 6 only with a multiple of four);
// * a read scoreboard of a shared or global store (0x388, 0x986): the
//   registers the store reads: its address (bits 24-31: one register for
//   STS, a pair for STG; of ptxas's waits for a store's read scoreboard at an
//   instruction writing a register next to the address, 709 are at the
//   second register of an STG's and none at one of an STS's) and data (bits
//   32-39,
//   its width in bits 73-75 as a load's: 5 only with an even register, 6
//   only with a multiple of four in 138,000 stores of the real-world corpus),
//   and for STG bits 64-71 as a uniform register (the descriptor: of 4,000
//   waits ptxas places for a store's read scoreboard, none is explained by
//   a write to a general register named there alone; an STS has 0 there in
//   all 14,655 of the first 200 sm_100 real-world links, no operand).
// Registers a global or shared load or store moves (bits 73-75: 0-4 up to
// 32 bits, 5 64 bits, 6 128 bits); 0 for another width.
inline unsigned access_width(const Instruction &f) {
  unsigned size = unsigned(f.hi >> 9 & 7);
  return size <= 4 ? 1 : size == 5 ? 2 : size == 6 ? 4 : 0;
}

struct Guarded {
  RegisterSet general, uniform;
};

inline std::optional<Guarded> guarded_registers(const Instruction &f, bool read) {
  Guarded g;
  auto add = [](RegisterSet &regs, unsigned first, unsigned count) {
    for (unsigned r = first; r < first + count && r < 255; r++)
      regs.set(r);
  };
  unsigned op = f.op(), d = f.dest();
  if (read) {
    if (op != 0x388 && op != 0x986)
      return std::nullopt;
    unsigned data = unsigned(f.lo >> 32 & 0xff), width = access_width(f);
    if (!width || (data < 255 && data % width))
      return std::nullopt;
    if (unsigned v = unsigned(f.lo >> 24 & 0xff); v < 255) {
      if (op == 0x986 && v % 2)
        return std::nullopt;
      add(g.general, v, op == 0x986 ? 2 : 1);
    }
    if (data < 255)
      add(g.general, data, width);
    if (unsigned v = unsigned(f.hi & 0xff); op == 0x986 && v < 255)
      add(g.uniform, v, aligned_span(v));
    return g;
  }
  if (d == 0xff)
    return std::nullopt;
  unsigned count = 0;
  if (op == op::kS2r || op == 0x9c3) {
    count = 1;
  } else if (op == op::kLdc || op == op::kLdcu) {
    unsigned size = unsigned(f.hi >> 8 & 0xff);
    count = size == 0x08 ? 1 : size == 0x0a ? 2 : size == 0x0c ? 4 : 0;
  } else if (op == 0x981 || op == 0x984) {
    count = access_width(f);
    if (count && d % count)
      return std::nullopt;
  }
  if (!count)
    return std::nullopt;
  add(op == op::kLdcu || op == 0x9c3 ? g.uniform : g.general, d, count);
  return g;
}

// Whether a register operand of `f` may name a guarded register.
inline bool names_guarded(const Instruction &f, const Guarded &g) {
  return (g.general.any() && operand_names_register(f, g.general, false)) ||
         (g.uniform.any() && operand_names_register(f, g.uniform, true));
}

// Whether `f` has to wait for producer `read`/`g` before it issues: for a
// write scoreboard any instruction naming the result; for a store's read
// scoreboard one that may overwrite a source. A load (0x980, 0x981, 0x983,
// 0x984) writes only its destination (bits 16-23, its aligned span) and
// reads its address and uniform operands, so one that reads a pending
// store's address register does not wait (HeCBench lfib4's colYGPU at
// sm_100/sm_120: nvlink's wait for the STS at 0x5d0, carried round the loop,
// sits past the LDS at 0x170 that reads the store's address R0 and the
// 0x890 at 0x180 that writes R4, at the LDS at 0x190 that writes its data R7).
inline bool must_wait_for_guarded(const Instruction &f, const Guarded &g, bool read) {
  const unsigned op = f.op();
  if (read && (op == 0x980 || op == 0x981 || op == 0x983 || op == 0x984)) {
    const unsigned d = f.dest();
    for (unsigned r = d; r < d + aligned_span(d) && r < 255; r++)
      if (g.general.test(r))
        return true;
    return false;
  }
  return names_guarded(f, g);
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
