// sm_100+: scoreboard and dependency checker for re-finalized kernels
// (sass_verify.h). The control-flow graph and the pending sets follow the
// allocation model of refinalize.cpp (branch targets and fall-through, an
// unpredicated EXIT ends a path, producers per instruction read scoreboard
// first), but every wait retires what it waits on: the checker asks what the
// hardware guarantees, not how ptxas allocates.
#include "sass_verify.h"

#include "sass.h"

#include <fmt/format.h>

#include <optional>

namespace dlink::sass {

namespace {

constexpr u64 kStackPointerLoad = 0x0000df00ff017b82; // LDC R1, c[0x0][0x37c]
constexpr size_t kMaxInstructions = 1 << 16;
constexpr size_t kMaxProducers = 8192;
constexpr size_t kMaxStateBits = size_t(1) << 26;
constexpr unsigned kNoControls = 7u | 7u << 3; // wr 7, rd 7, no wait
constexpr size_t kMaxDelay = 256;              // instructions a wait may move down

using sass::Bits;
using sass::Producer;

std::string at(size_t i) { return fmt::format("{:#x}", i * kInstructionSize); }

bool is_bssy(const Instruction &f) { return (f.op() & 0x1ff) == 0x145; }

// The control transfers the graph models: BRA (0x147 family), BSSY, BSYNC
// (0x941), BREAK (0x942), 0x946, 0x948/0x348, the trap 0x95c, NANOSLEEP
// (0x95d), BRX (0x949) and EXIT. CALLs and anything else in the family (RET
// 0x950, the BRX form 0x958: not decoded) are not.
bool control_known(const Instruction &f) {
  if (!is_control(f) || is_brx(f))
    return true;
  unsigned fam = f.op() & 0x1ff;
  if (fam == 0x147 || fam == 0x145)
    return true;
  unsigned op = f.op();
  // (0x948 and its register form 0x348: the warp-synchronous instruction of
  // the fence model, refinalization.md; it falls through.) 0x95c is the trap
  // of ptxas's failed checks (the -G stack-limit check `S2R`, `ISETP`, `@P0
  // BRA` over it; cooperative groups' grid checks): the same 16 bytes at all
  // 78 places in the golden corpus, so it has no relative target; taken as
  // falling through, which also covers its ending the thread (more paths only
  // add pending producers, in both codes).
  if (op == 0x95c)
    return f.lo == 0x40000795cull && f.operands_hi() == 0x300000;
  // A CALL falls through (the callee returns); what the rewrite leaves
  // pending across it is checked against ptxas's code below.
  if (is_call(f))
    return true;
  // BREAK (0x942) names a convergence barrier register, not a target: the
  // branch out of the loop follows it. NANOSLEEP (0x95d, its immediate in
  // bits 32-63: `__nanosleep(100)` is 0x640000795d; 0x35d with the time in
  // a register, CUB's look-back back-off) suspends the thread for a while.
  // Both fall through.
  return op == 0x941 || op == 0x942 || op == 0x946 || op == 0x948 || op == 0x348 ||
         op == 0x95d || op == 0x35d || op == op::kExit;
}

struct Kernel {
  std::vector<Instruction> I;
  size_t n = 0;
  std::vector<std::vector<size_t>> preds;
  std::vector<Producer> prods;
  std::vector<std::vector<size_t>> gen;
  std::vector<Bits> before, in, retired;
};

// Graph, producers and the pending sets; an error message when outside.
std::optional<std::string> analyse(Kernel &K) {
  const size_t n = K.n;
  K.preds.assign(n, {});
  for (size_t i = 0; i < n; i++) {
    const Instruction &f = K.I[i];
    if (is_brx(f)) {
      for (size_t j = 0; j < n; j++)
        K.preds[j].push_back(i);
      continue;
    }
    if (!control_known(f))
      return fmt::format("control transfer {:#x} not modelled at {}", f.op(), at(i));
    if (f.wr() == 6 || f.rd() == 6)
      return "scoreboard index 6 at " + at(i);
    // A scoreboard the next instruction waits on is set at least 2 cycles
    // before (never fewer in nvlink's output: refinalize.cpp, write_controls).
    if (i + 1 < n && f.stall() < 2 && waits_on(K.I[i + 1].wait(), f.wr(), f.rd()))
      return "a scoreboard waited on one cycle after it is set at " + at(i + 1);
    if (is_branch(f)) {
      auto t = branch_target(i, f, n);
      if (!t)
        return "branch target outside the code at " + at(i);
      K.preds[*t].push_back(i);
      if (!(f.op() == op::kBra && f.pred() == kNone && !(f.lo >> 33 & 1)) && i + 1 < n)
        K.preds[i + 1].push_back(i);
    } else if (!is_exit(f) && i + 1 < n) {
      K.preds[i + 1].push_back(i);
    }
  }
  K.gen.assign(n, {});
  for (size_t i = 0; i < n; i++) {
    if (K.I[i].rd() != kNone) {
      K.gen[i].push_back(K.prods.size());
      K.prods.push_back({i, true, K.I[i].rd()});
    }
    if (K.I[i].wr() != kNone) {
      K.gen[i].push_back(K.prods.size());
      K.prods.push_back({i, false, K.I[i].wr()});
    }
  }
  const size_t np = K.prods.size();
  if (np > kMaxProducers || n * np > kMaxStateBits)
    return "too large to check";
  K.before.assign(n, Bits(np));
  K.in.assign(n, Bits(np));
  K.retired.assign(n, Bits(np));
  std::vector<Bits> out(n, Bits(np));
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < n; i++) {
      Bits st(np);
      for (size_t p : K.preds[i])
        st |= out[p];
      K.before[i] = st;
      Bits w(np);
      unsigned mask = K.I[i].wait();
      if (mask)
        for (size_t x = 0; x < np; x++)
          if (st.test(x) && (mask >> K.prods[x].sb & 1)) {
            w.set(x);
            st.reset(x);
          }
      K.retired[i] = std::move(w);
      K.in[i] = st;
      for (size_t x : K.gen[i])
        st.set(x);
      if (!(st == out[i])) {
        out[i] = std::move(st);
        changed = true;
      }
    }
  }
  return std::nullopt;
}

// A producer on an index still pending there (after its instruction's waits),
// or on the index of its own instruction's other scoreboard.
bool shares(const Kernel &K, size_t x) {
  const Producer &p = K.prods[x];
  for (size_t y = 0; y < K.prods.size(); y++)
    if (y != x && K.prods[y].sb == p.sb &&
        (K.in[p.insn].test(y) || (K.prods[y].insn == p.insn && y < x)))
      return true;
  return false;
}

// A share forced by pressure: a producer that finds all six indices pending
// at its instruction, or a global load's write scoreboard (ptxas gives those
// indices 2-5 only) that finds 2-5 pending. It is the share ptxas itself makes
// there; a scoreboard counts its producers and a wait on it waits for all of
// them, so a share only makes waits retire more.
bool pressure_share(const Kernel &K, size_t x) {
  const Producer &p = K.prods[x];
  const unsigned op = K.I[p.insn].op();
  unsigned busy = 0;
  for (size_t y = 0; y < K.prods.size(); y++)
    if (y != x && (K.in[p.insn].test(y) || (K.prods[y].insn == p.insn && y < x)))
      busy |= 1u << K.prods[y].sb;
  if ((busy & 0x3f) == 0x3f)
    return true;
  return !p.read && (op == 0x980 || op == 0x981) && (busy & 0x3c) == 0x3c;
}

// A wait on producer q (rewritten code) that ptxas had at instruction j and
// the rewrite placed later: accepted in straight-line code up to the wait, for
// a producer whose guarded registers (sass.h: a load's result, a store's
// sources) no instruction on the way names in its register operand bytes
// (operand_names_register: where ptxas's own waits find every first reader,
// as r1_unused assumes for the stack pointer), past no memory operation but
// loads and no barrier (passes_pending_memory).
bool delay_justified(const Kernel &N, size_t q, size_t j) {
  const Producer &p = N.prods[q];
  const Instruction &f = N.I[p.insn];
  auto regs = guarded_registers(f, p.read);
  if (!regs)
    return false;
  for (size_t r = j; r < N.n && r < j + kMaxDelay; r++) {
    if (!N.before[r].test(q) || (N.I[r].wait() >> p.sb & 1))
      return true;
    const Instruction &g = N.I[r];
    if (!passes_pending_memory(g) || is_call(g) || must_wait_for_guarded(g, *regs, p.read))
      return false;
    if (r + 1 >= N.n || N.preds[r + 1].size() != 1 || N.preds[r + 1][0] != r)
      return false;
  }
  return false;
}

} // namespace

VerifyResult verify_refinalized(std::span<const u8> original, std::span<const u8> code,
                                const std::vector<bool> &removed_in) {
  auto fail = [](std::string why) { return VerifyResult{false, std::move(why)}; };
  if (original.size() % kInstructionSize || code.size() % kInstructionSize || original.empty() ||
      original.size() / kInstructionSize > kMaxInstructions)
    return fail("not whole instructions");
  Kernel O, N;
  O.I = decode(original);
  N.I = decode(code);
  O.n = O.I.size();
  N.n = N.I.size();
  std::vector<bool> removed = removed_in;
  if (removed.empty())
    removed.assign(O.n, false);
  if (removed.size() != O.n)
    return fail("removal map of another size");
  // The trailing NOPs after a final unpredicated BRA or EXIT are never
  // reached; the rewrite may pad them again to another count.
  auto trim = [](std::vector<Instruction> &I) {
    size_t e = I.size();
    while (e > 0 && I[e - 1].op() == op::kNop && I[e - 1].controls() == kNoControls)
      e--;
    if (e > 0 && e < I.size() &&
        ((I[e - 1].op() == op::kBra && I[e - 1].pred() == kNone && !(I[e - 1].lo >> 33 & 1)) ||
         is_exit(I[e - 1])))
      I.resize(e);
  };
  trim(O.I);
  trim(N.I);
  O.n = O.I.size();
  N.n = N.I.size();
  removed.resize(O.n);
  // Positions of the instructions kept (a removed one: the next kept).
  std::vector<size_t> pos(O.n + 1);
  std::vector<std::optional<size_t>> inv;
  size_t m = 0;
  for (size_t k = 0; k < O.n; k++) {
    pos[k] = m;
    if (!removed[k])
      m++;
  }
  pos[O.n] = m;
  if (m != N.n)
    return fail("instruction count does not match the removals");
  // (With instructions removed a BRX's targets move, in its jump table,
  // which the checker does not read.)
  if (m != O.n)
    for (const Instruction &f : O.I)
      if (is_brx(f))
        return fail("a BRX with instructions removed at " + at(size_t(&f - O.I.data())));
  inv.assign(N.n, std::nullopt);
  for (size_t k = 0; k < O.n; k++)
    if (!removed[k])
      inv[pos[k]] = k;

  if (auto e = analyse(O))
    return fail("ptxas's code: " + *e);
  if (auto e = analyse(N))
    return fail(*e);

  // What may change: controls; branch and BSSY offsets, to the same place.
  const u64 controls = u64(0xfff) << kControlsShift;
  for (size_t k = 0; k < O.n; k++) {
    const Instruction &f = O.I[k];
    if (removed[k]) {
      if (f.controls() != kNoControls)
        return fail("removed instruction with controls at " + at(k) + " (ptxas's code)");
      if (f.pred() != 0xf && !is_membar(f))
        return fail("removed instruction that executes at " + at(k) + " (ptxas's code)");
      continue;
    }
    size_t j = pos[k];
    const Instruction &g = N.I[j];
    // (The stall may rise from below 2 to 2 where the next instruction now
    // waits on this one's scoreboard; analyse checked the rule.)
    const u64 stall = u64(15) << 41;
    bool raised = f.stall() < 2 && g.stall() == 2 && j + 1 < N.n && waits_on(N.I[j + 1].wait(), g.wr(), g.rd());
    u64 same = raised ? ~(controls | stall) : ~controls;
    if ((f.hi & same) != (g.hi & same))
      return fail("stall, yield or operands changed at " + at(j));
    if (is_branch(f)) {
      const u64 offset = u64(0xff) << 16 | ~((u64(1) << 34) - 1);
      auto t = branch_target(k, f, O.n), u = branch_target(j, g, N.n);
      if ((f.lo & ~offset) != (g.lo & ~offset) || !t || !u || *u != pos[*t])
        return fail("branch changed at " + at(j));
    } else if (is_bssy(f)) {
      int64_t t = int64_t(k) + 1 + bssy_offset(f.lo) / int64_t(kInstructionSize);
      int64_t u = int64_t(j) + 1 + bssy_offset(g.lo) / int64_t(kInstructionSize);
      if ((f.lo & 0xffffffff) != (g.lo & 0xffffffff) || t < 0 || t > int64_t(O.n) ||
          u != int64_t(pos[size_t(t)]))
        return fail("BSSY changed at " + at(j));
    } else if (f.lo != g.lo) {
      return fail("instruction changed at " + at(j));
    }
  }

  // Producers: every scoreboard of the rewrite is ptxas's.
  std::vector<int> o2n(O.prods.size(), -1);
  std::vector<int> n2o(N.prods.size(), -1);
  for (size_t q = 0; q < N.prods.size(); q++) {
    size_t k = *inv[N.prods[q].insn];
    for (size_t x : O.gen[k])
      if (O.prods[x].read == N.prods[q].read) {
        o2n[x] = int(q);
        n2o[q] = int(x);
      }
    if (n2o[q] < 0)
      return fail("a scoreboard ptxas did not set at " + at(N.prods[q].insn));
  }
  for (size_t x = 0; x < O.prods.size(); x++) {
    if (o2n[x] >= 0)
      continue;
    const Producer &p = O.prods[x];
    if (removed[p.insn])
      return fail("removed producer at " + at(p.insn) + " (ptxas's code)");
    if (!(p.insn == 0 && !p.read && O.I[0].lo == kStackPointerLoad && r1_unused(O.I)))
      return fail("scoreboard dropped at " + at(pos[p.insn]));
  }

  // Coverage: where ptxas waited for a producer, it is retired.
  for (size_t k = 0; k < O.n; k++) {
    if (removed[k])
      continue;
    size_t j = pos[k];
    for (size_t x = 0; x < O.prods.size(); x++) {
      if (!O.retired[k].test(x) || o2n[x] < 0)
        continue;
      size_t q = size_t(o2n[x]);
      if (!N.before[j].test(q) || (N.I[j].wait() >> N.prods[q].sb & 1))
        continue;
      if (!delay_justified(N, q, j))
        return fail(fmt::format("the result of {} may be pending at {} (ptxas waits there)",
                                at(N.prods[q].insn), at(j)));
    }
  }

  // Across a CALL only what ptxas left pending there (the callee's code
  // counts on nothing else).
  for (size_t k = 0; k < O.n; k++) {
    if (removed[k] || !is_call(O.I[k]))
      continue;
    size_t j = pos[k];
    for (size_t q = 0; q < N.prods.size(); q++)
      if (N.in[j].test(q) && !O.in[k].test(size_t(n2o[q])))
        return fail("the result of " + at(N.prods[q].insn) + " pending across the call at " + at(j));
  }

  // No scoreboard reused while pending, unless ptxas shared there too or the
  // share is forced by pressure (pressure_share).
  for (size_t q = 0; q < N.prods.size(); q++)
    if (shares(N, q) && !shares(O, size_t(n2o[q])) && !pressure_share(N, q))
      return fail("scoreboard " + std::to_string(N.prods[q].sb) + " reused while pending at " +
                  at(N.prods[q].insn));
  return {true, {}};
}

} // namespace dlink::sass
