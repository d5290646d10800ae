// sm_100+: scoreboard re-allocation of re-finalized kernels (refinalize.h).
#include "refinalize.h"

#include "output_model.h"
#include "dlink/log.h"
#include "sass.h"
#include "sass_verify.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace dlink {

namespace {

// An instruction with its scoreboard controls as the allocation sees them: a
// split (split_pressure_share) may give one producer the virtual index 6
// (wait mask bit 6) before allocation.
struct Insn : sass::Instruction {
  unsigned w = 7, r = 7, m = 0;
  Insn() = default;
  Insn(sass::Instruction f) : sass::Instruction(f), w(f.wr()), r(f.rd()), m(f.wait()) {}
  unsigned wr() const { return w; }
  unsigned rd() const { return r; }
  unsigned wait() const { return m; }
};

constexpr u64 kStackPointerLoad = 0x0000df00ff017b82; // LDC R1, c[0x0][0x37c]
constexpr size_t kMaxInstructions = 1 << 16;

using sass::branch_target;
using sass::is_branch;
using sass::is_call;

using sass::Bits;
using sass::Producer;

unsigned class_start(const Insn &f, bool read, bool crosses_block = false) {
  if (read)
    return 0;
  // Global load, generic load, global atomic (measured: k_tiles' ATOMG and
  // LD take 2 when 0 and 1 are free). One still pending on entry to another
  // basic block starts at 5 (measured on the real-world corpus: an
  // accumulator loaded before a loop and read after it; golden case
  // refin_ldg_across_blocks).
  if (f.op() == 0x981 || f.op() == 0x980 || f.op() == 0x98a)
    return crosses_block ? 5 : 2;
  if (f.op() == 0x9a3)
    return 5;
  // 0x9a8 (a global atomic with a result): 5 with a read scoreboard, else 2
  // (measured on fence probes: ptxas's own allocation).
  if (f.op() == 0x9a8)
    return f.rd() != 7 ? 5 : 2;
  return 0;
}

struct Controls {
  unsigned wr, rd, wait;
  bool operator==(const Controls &) const = default;
};

enum class Interference {
  // Two producers interfere when both are pending at one point of the
  // control-flow graph (on entry to an instruction, before its waits, or after
  // it); in addition, at the target of a backward branch, what arrives over
  // the backward edge before the branch's own waits meets what is pending
  // there on entry. ptxas's allocation and nvlink's.
  kLoopHeader,
  // The same, but a backward branch's waits do not retire what flows over the
  // backward edge (it stays pending into the next iteration until an
  // instruction there waits on its index). Used only as a cross-check.
  kAcrossBackEdge,
};

constexpr size_t kMaxProducers = 8192;
constexpr size_t kMaxStateBits = size_t(1) << 26; // per dataflow vector (8 MiB)

// The kernel as the allocation model sees it: its control-flow graph and its
// producers (instructions with a read or write scoreboard).
struct Model {
  struct Edge {
    size_t from;
    bool back;
  };
  const std::vector<Insn> &I;
  size_t n = 0;
  std::vector<std::vector<Edge>> preds;
  // Producers in allocation order: per instruction, read scoreboard first.
  std::vector<Producer> prods;
  std::vector<std::vector<size_t>> gen; // per instruction: the producers it starts
  size_t np = 0;
  std::vector<bool> leader; // first instruction of a basic block
};

// Forward dataflow over producer identities: which are pending on entry to
// each instruction (before), after its waits (in), after it (out), and which
// each wait retires.
struct Flow {
  std::vector<Bits> before, in, out, retired;
};

// The control-flow graph's predecessors. False for a branch whose target is
// not an instruction.
bool build_graph(Model &M) {
  const std::vector<Insn> &I = M.I;
  size_t n = M.n;
  M.preds.assign(n, {});
  for (size_t i = 0; i < n; i++) {
    const Insn &f = I[i];
    auto edge = [&](size_t j) {
      if (j < n)
        M.preds[j].push_back({i, j <= i});
    };
    if (is_branch(f)) {
      if (auto t = branch_target(i, f, n))
        edge(*t);
      else
        return false;
      // An unpredicated BRA ends the path, except with bit 33 set (the
      // divergence check before a warp-synchronous block: ptxas's
      // allocation of k_tiles needs its fall-through).
      if (!(f.op() == 0x947 && f.pred() == 7 && !(f.lo >> 33 & 1)))
        edge(i + 1);
    } else if (f.op() == 0x94d && f.pred() == 7) {
      // EXIT: no successor
    } else {
      edge(i + 1);
    }
  }
  M.leader.assign(n, false);
  for (size_t j = 0; j < n; j++) {
    bool l = M.preds[j].size() != 1 || (j > 0 && is_branch(I[j - 1]));
    for (const Model::Edge &e : M.preds[j])
      if (e.from + 1 != j)
        l = true;
    M.leader[j] = l;
  }
  return true;
}

// Whether producer x is still pending on entry to a basic block.
bool crosses_block(const Model &M, const Flow &F, size_t x) {
  for (size_t j = 0; j < M.n; j++)
    if (M.leader[j] && F.before[j].test(x))
      return true;
  return false;
}

void collect_producers(Model &M) {
  M.gen.assign(M.n, {});
  for (size_t i = 0; i < M.n; i++) {
    if (M.I[i].rd() != 7) {
      M.gen[i].push_back(M.prods.size());
      M.prods.push_back({i, true, M.I[i].rd()});
    }
    if (M.I[i].wr() != 7) {
      M.gen[i].push_back(M.prods.size());
      M.prods.push_back({i, false, M.I[i].wr()});
    }
  }
  M.np = M.prods.size();
}

// across_back: a backward edge carries the state before the branch's waits.
Flow pending_flow(const Model &M, bool across_back) {
  const size_t n = M.n, np = M.np;
  Flow F{std::vector<Bits>(n, Bits(np)), std::vector<Bits>(n, Bits(np)),
         std::vector<Bits>(n, Bits(np)), std::vector<Bits>(n, Bits(np))};
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < n; i++) {
      Bits st(np);
      for (const Model::Edge &e : M.preds[i]) {
        if (across_back && e.back) {
          st |= F.before[e.from];
          for (size_t x : M.gen[e.from])
            st.set(x);
        } else {
          st |= F.out[e.from];
        }
      }
      if (!(st == F.before[i])) {
        F.before[i] = st;
        changed = true;
      }
      Bits w(np);
      unsigned mask = M.I[i].wait();
      // The waits of 0x948 do not retire: what they wait on stays pending
      // up to the next wait on it (measured: k_tiles' warp-sync blocks).
      bool retires = M.I[i].op() != 0x948;
      if (mask)
        for (size_t x = 0; x < np; x++)
          if (st.test(x) && (mask >> M.prods[x].sb & 1)) {
            w.set(x);
            if (retires)
              st.reset(x);
          }
      F.retired[i] = w;
      F.in[i] = st;
      for (size_t x : M.gen[i])
        st.set(x);
      if (!(st == F.out[i])) {
        F.out[i] = std::move(st);
        changed = true;
      }
    }
  }
  return F;
}

// Groups: a producer that takes a scoreboard still pending shares it.
// nullopt for shares the model does not cover.
std::optional<std::vector<size_t>> share_groups(const Model &M, const Flow &F, bool drop_first,
                                                bool keep_pressure_shares, const char **why) {
  const std::vector<Insn> &I = M.I;
  const std::vector<Producer> &prods = M.prods;
  const size_t np = M.np;
  std::vector<size_t> group(np);
  for (size_t x = 0; x < np; x++) {
    group[x] = x;
    size_t i = prods[x].insn;
    unsigned busy = 0;
    for (size_t y = 0; y < np; y++)
      if (F.in[i].test(y)) {
        busy |= 1u << prods[y].sb;
        if (prods[y].sb == prods[x].sb && group[x] == x)
          group[x] = group[y];
      }
    for (size_t y : M.gen[i])
      if (y < x)
        busy |= 1u << prods[y].sb;
    if (group[x] != x) {
      unsigned s = class_start(I[i], prods[x].read, crosses_block(M, F, x));
      bool free_left = false;
      for (unsigned k = s; k < 6; k++)
        if (!(busy >> k & 1))
          free_left = true;
      // Shared for lack of a free index while the stack-pointer load (the
      // first producer, which nvlink drops) is pending: nvlink has an index
      // more there and allocates differently (not modelled). Without the
      // stack-pointer load pending, or for a global load (whose indices start
      // at 2, above the one the stack-pointer load frees), nvlink keeps the
      // share.
      bool sp_pending = I[0].lo == kStackPointerLoad && !M.gen[0].empty() && F.in[i].test(M.gen[0].back());
      // (A share on the virtual index 6 is one split_pressure_share made.)
      if (drop_first && !free_left && sp_pending && s == 0 && prods[x].sb != 6 &&
          !keep_pressure_shares)
        {
        *why = "a share for lack of an index while the stack-pointer load is pending";
        return std::nullopt;
      }
    }
  }
  // A producer sharing the stack-pointer load's scoreboard: such kernels
  // (launch_params' k_lb) are not always re-finalized by nvlink; not modelled.
  if (drop_first && I[0].lo == kStackPointerLoad && !M.gen[0].empty())
    for (size_t x = M.gen[0].back() + 1; x < np; x++)
      if (group[x] == M.gen[0].back())
        {
        *why = "a producer on the stack-pointer load's index";
        return std::nullopt;
      }
  return group;
}

// Interference between producers: pending together at some point (per
// `mode`).
std::vector<Bits> interference(const Model &M, const Flow &F, Interference mode) {
  std::vector<Bits> co(M.np, Bits(M.np));
  auto meet = [&](const Bits &st) {
    for (size_t k = 0; k < st.w.size(); k++)
      for (u64 m = st.w[k]; m; m &= m - 1)
        co[k * 64 + size_t(__builtin_ctzll(m))] |= st;
  };
  Flow G = mode == Interference::kAcrossBackEdge ? pending_flow(M, true) : Flow{};
  const Flow &H = mode == Interference::kAcrossBackEdge ? G : F;
  for (size_t i = 0; i < M.n; i++) {
    meet(H.before[i]);
    meet(H.out[i]);
  }
  if (mode == Interference::kLoopHeader)
    for (size_t h = 0; h < M.n; h++)
      for (const Model::Edge &e : M.preds[h])
        if (e.back && e.from != h) {
          Bits st = F.before[h];
          st |= F.before[e.from];
          for (size_t x : M.gen[e.from])
            st.set(x);
          meet(st);
        }
  return co;
}

// The index of each producer (-1: the dropped stack-pointer load), lowest
// first from its class start; nullopt when none is free.
std::optional<std::vector<int>> assign_indices(const Model &M, const Flow &F,
                                               const std::vector<size_t> &group,
                                               const std::vector<Bits> &co, bool drop_first,
                                               bool keep_pressure_shares) {
  const std::vector<Producer> &prods = M.prods;
  const size_t np = M.np;
  std::vector<int> assign(np, -1);
  for (size_t x = 0; x < np; x++) {
    size_t i = prods[x].insn;
    if (drop_first && i == 0)
      continue;
    if (group[x] != x) {
      if (assign[group[x]] < 0)
        return std::nullopt;
      assign[x] = assign[group[x]];
      continue;
    }
    unsigned busy = 0;
    for (size_t y = 0; y < np; y++)
      if (assign[y] >= 0 && (F.in[i].test(y) || (prods[y].insn == i && y < x) ||
                             (co[x].test(y) && group[y] != group[x])))
        busy |= 1u << assign[y];
    unsigned s = class_start(M.I[i], prods[x].read, crosses_block(M, F, x));
    int pick = -1;
    for (unsigned k = s; k < 6 && pick < 0; k++)
      if (!(busy >> k & 1))
        pick = int(k);
    // Below the class start while the stack-pointer load's sharers hold the
    // freed index: nvlink shares an index there instead (probe q03's second
    // global load takes the first one's 2); not modelled.
    if (pick < 0 && keep_pressure_shares)
      return std::nullopt;
    for (unsigned k = 0; k < 6 && pick < 0; k++)
      if (!(busy >> k & 1))
        pick = int(k);
    if (pick < 0) {
      log::debug("refinalize: no free index for the {} scoreboard at {:#x}", prods[x].read ? "read" : "write",
                 i * 16);
      return std::nullopt;
    }
    assign[x] = pick;
  }
  return assign;
}

// Runs the allocation model. nullopt when the kernel is outside the model.
// keep_pressure_shares: the stack-pointer load's index goes to the producers
// that shared it (split_pressure_share), so shares for lack of a free index
// stay as they are.
std::optional<std::vector<Controls>> allocate(const std::vector<Insn> &I, bool drop_first,
                                              Interference mode, bool keep_pressure_shares = false,
                                              const char **why = nullptr) {
  auto fail = [&](const char *w) -> std::optional<std::vector<Controls>> {
    if (why)
      *why = w;
    return std::nullopt;
  };
  Model M{I, I.size()};
  if (!build_graph(M))
    return fail("a branch target outside the code");
  collect_producers(M);
  if (M.np > kMaxProducers || M.n * M.np > kMaxStateBits)
    return fail("too large"); // bounds the dataflow's memory; such kernels are kept
  Flow F = pending_flow(M, false);
  const char *share_why = "";
  auto group = share_groups(M, F, drop_first, keep_pressure_shares, &share_why);
  if (!group)
    return fail(share_why);
  std::vector<Bits> co = interference(M, F, mode);
  auto assign = assign_indices(M, F, *group, co, drop_first, keep_pressure_shares);
  if (!assign)
    return fail("no free index");
  // Each instruction's controls: its producers' indices and the indices of
  // what its wait retires.
  std::vector<Controls> res(M.n);
  for (size_t i = 0; i < M.n; i++) {
    Controls c{7, 7, 0};
    for (size_t x : M.gen[i])
      if ((*assign)[x] >= 0)
        (M.prods[x].read ? c.rd : c.wr) = unsigned((*assign)[x]);
    for (size_t x = 0; x < M.np; x++)
      if (F.retired[i].test(x) && (*assign)[x] >= 0)
        c.wait |= 1u << (*assign)[x];
    res[i] = c;
  }
  return res;
}

// Producers that ptxas put on a pending scoreboard for lack of a free one
// (docs/notes/refinalization.md, "Device runtime"), while the stack-pointer
// load is pending; nvlink has the index that load frees:
// * those on the stack-pointer load's own index keep sharing among themselves
//   on the freed index, waited on where the stack-pointer load's wait was;
// * otherwise a single LDCU (0x7ac) sharing another producer's index gets an
//   index of its own, waited on at its first reader (or, when its reader is
//   the shared wait, the other LDCU moves to its own first reader).
// This rewrites the input so that they have the virtual index 6 (wait mask bit
// 6); the allocation then gives it a real index. Only in straight-line code
// from the kernel's start, with every instruction up to a reader decoded.
// Returns the input unchanged when there is nothing to split, nullopt when a
// split is needed but not modelled.

// Uniform-register operands: bits 32-39 of a UR form (0x2xx with 0x80, and
// the 0xcxx and 0xexx forms); the IMAD family (0x2a4, 0x2a5) also bits
// 64-71. Measured: the LDCU's destination appears there in the instruction
// ptxas makes wait on it. nullopt: an opcode not decoded.
std::optional<bool> reads_uniform(const Insn &f, unsigned reg, unsigned count) {
  unsigned op = f.op(), form = op >> 9;
  auto in = [&](unsigned v) { return v >= reg && v < reg + count; };
  if (op == 0x7ac || op == 0xb82 || op == 0x9c3 || op == 0x919)
    return false;
  if ((form == 1 && (op & 0x80)) || form == 6 || form == 7) {
    if (in(unsigned(f.lo >> 32 & 0xff)))
      return true;
    if ((op == 0x2a4 || op == 0x2a5) && in(unsigned(f.hi & 0xff)))
      return true;
    return false;
  }
  if (form == 1)
    return false;
  return std::nullopt;
}

// First instruction after the LDCU at `p` (before `end`) that reads its
// destination; nullopt when there is none, an instruction on the way is not
// decoded, or the destination is written again first.
std::optional<size_t> first_uniform_reader(const std::vector<Insn> &I, size_t p, size_t end) {
  if (I[p].op() != 0x7ac)
    return std::nullopt;
  unsigned size = unsigned(I[p].hi >> 8 & 0xff);
  unsigned count = size == 0x08 ? 1 : size == 0x0a ? 2 : size == 0x0c ? 4 : 0;
  if (!count)
    return std::nullopt;
  unsigned reg = unsigned(I[p].lo >> 16 & 0xff);
  for (size_t i = p + 1; i < end; i++) {
    const Insn &f = I[i];
    auto r = reads_uniform(f, reg, count);
    if (!r)
      return std::nullopt;
    if (*r)
      return i;
    unsigned d = unsigned(f.lo >> 16 & 0xff);
    if ((f.op() == 0x7ac || f.op() == 0x9c3) && d + 4 > reg && d < reg + count)
      return std::nullopt;
  }
  return std::nullopt;
}

// A single producer on the stack-pointer load's index (taken while all six
// are pending) whose shared wait sits at a predicated EXIT or BRA, which reads
// no register: nvlink drops that wait and puts the producer on the index of
// the pending producer whose next wait comes first, not counting a wait at the
// very next instruction (memcpy_3d_device<unsigned long, 0, 0, *> at 0x80:
// waits at 0x90 and 0xb0, joins 0xb0's; cg_grid's k_tiles at sm_100-sm_110,
// the S2R at 0xb0: waits at 0xc0 and 0xd0, joins 0xd0's). Returns the input
// with the producer moved to that index, nullopt when the case does not
// apply.
template <class PendingT>
std::optional<std::vector<Insn>> join_unread_sp_sharer(std::vector<Insn> I,
                                                       const std::vector<size_t> &sharers,
                                                       const std::vector<PendingT> &pend,
                                                       size_t end) {
  if (sharers.size() != 1)
    return std::nullopt;
  const size_t s = sharers.front();
  const unsigned sp_sb = I[0].wr();
  // The wait that retires the sharer (with the stack-pointer load); a branch
  // ending the straight-line prefix may carry it.
  std::optional<size_t> w;
  for (size_t i = s + 1; i <= end && i < I.size() && !w; i++)
    if (I[i].wait() >> sp_sb & 1)
      w = i;
  if (!w || !(I[*w].op() == 0x94d || I[*w].op() == 0x947) || I[*w].pred() == 7)
    return std::nullopt;
  std::optional<size_t> best_at;
  unsigned best_sb = 7;
  for (const PendingT &q : pend) {
    if (q.insn == 0 || q.sb == sp_sb)
      continue;
    std::optional<size_t> at;
    for (size_t i = s + 1; i <= *w && !at; i++)
      if (I[i].wait() >> q.sb & 1)
        at = i;
    if (!at)
      return std::nullopt; // a pending producer retired after the EXIT/BRA
    if (*at < s + 2 || *at == *w)
      continue;
    if (!best_at || *at < *best_at || (*at == *best_at && q.sb < best_sb)) {
      best_at = at;
      best_sb = q.sb;
    }
  }
  if (!best_at)
    return std::nullopt;
  I[s].w = best_sb;
  return I;
}

// For an S2R (0x919) whose shared wait at `wait` is dissolved: the next
// instruction after it that waits on anything (up to `end`, a branch ending
// the straight-line prefix included), provided no instruction in between names
// the S2R's destination in bits 24-31, 32-39 or 64-71 (a conservative reader
// test), the shared wait included. Measured: cg_grid's k_tiles at sm_120/sm_121, the S2R at 0x40 (R6,
// read at 0x1b0), shared wait 0x140, nvlink waits at the predicated BRA at
// 0x160 where ptxas waits on everything pending. nullopt otherwise.
std::optional<size_t> next_wait_before_reader(const std::vector<Insn> &I, size_t q, size_t wait,
                                              size_t end) {
  if (I[q].op() != 0x919)
    return std::nullopt;
  unsigned d = unsigned(I[q].lo >> 16 & 0xff);
  if (d == 0xff)
    return std::nullopt;
  // The shared wait itself must not read it either: then both are read there
  // and nvlink keeps the share (probe e37 at sm_120, not modelled).
  for (size_t i = wait; i <= end && i < I.size(); i++) {
    if (i > wait && I[i].wait())
      return i;
    const Insn &f = I[i];
    if ((f.lo >> 24 & 0xff) == d || (f.lo >> 32 & 0xff) == d || (f.hi & 0xff) == d)
      return std::nullopt;
  }
  return std::nullopt;
}

struct Split {
  std::vector<Insn> code;
  bool sp_group = false; // the stack-pointer load's sharers got index 6
};

// Straight-line prefix: up to the first branch, unpredicated EXIT or branch
// target; nullopt for a branch whose target is not known.
std::optional<size_t> straight_line_end(const std::vector<Insn> &I) {
  size_t n = I.size();
  size_t end = n;
  for (size_t i = 0; i < n; i++) {
    const Insn &f = I[i];
    if (is_branch(f)) {
      auto t = branch_target(i, f, n);
      if (!t)
        return std::nullopt;
      end = std::min(end, std::min(i, *t));
    } else if (f.op() == 0x94d && f.pred() == 7) {
      end = std::min(end, i);
    }
  }
  return end;
}

struct PendingLoad {
  size_t insn;
  unsigned sb;
};

// The instructions that share the stack-pointer load's index for lack of a
// free one (split_pressure_share, below), with what was pending at the first
// and second of them.
struct SpSharers {
  std::vector<size_t> at;
  std::vector<PendingLoad> pend_at_first, pend_at_second;
  bool with_5_free = false;
};

std::optional<Split> split_sp_sharers(std::vector<Insn> I, unsigned sp_sb, size_t end,
                                      std::optional<size_t> cand, SpSharers sh) {
  size_t n = I.size();
  std::vector<size_t> &sp_sharers = sh.at;
  const bool sharer_with_5_free = sh.with_5_free;
  // A share for lack of a free index before the first of them gets the
  // freed index in nvlink's allocation, and they share it (probe s22); not
  // modelled.
  if (cand && *cand < sp_sharers.front())
    return std::nullopt;
  // With index 5 free at a sharer, nvlink gives a single sharer an index
  // of its own (the one the stack-pointer load frees), waited on where the
  // stack-pointer load was, whatever instruction waits there (fwt's
  // @P0 BRA). Of two such sharers, the first does so and the second joins
  // the lowest index pending there (real-world haxpy and golden case
  // refin_sp_share_two: the LDCU at 0x90 joins the S2R at 0x10; in the
  // golden case that is not the index whose next wait comes first).
  if (sharer_with_5_free && sp_sharers.size() == 2) {
    unsigned low = 7;
    for (const PendingLoad &q : sh.pend_at_second)
      if (q.insn != 0 && q.sb != sp_sb)
        low = std::min(low, q.sb);
    if (low == 7)
      return std::nullopt;
    I[sp_sharers[1]].w = low;
    sp_sharers.pop_back();
  }
  if (sharer_with_5_free && sp_sharers.size() != 1)
    return std::nullopt;
  if (sharer_with_5_free) {
    // (the general rule below)
  } else if (auto joined = join_unread_sp_sharer(I, sp_sharers, sh.pend_at_first, end))
    return Split{std::move(*joined), true};
  for (size_t x : sp_sharers)
    if (I[x].op() == 0x919)
      return std::nullopt;
  // They keep sharing among themselves on an index of their own (the one
  // the stack-pointer load frees); the waits that retired them (with the
  // stack-pointer load) now retire that index. Other shares for lack of a
  // free index stay (probe q03). A single sharer whose wait is at a
  // predicated EXIT or BRA joins another index instead
  // (join_unread_sp_sharer, above); any other such wait is not modelled.
  for (size_t x : sp_sharers)
    I[x].w = 6;
  size_t left = 0;
  // A branch ending the straight-line prefix may carry the wait (fwt's
  // @P0 BRA); its waits come before it leaves the prefix.
  size_t last = end < n && is_branch(I[end]) ? end + 1 : end;
  for (size_t i = sp_sharers.front(); i < last; i++) {
    if (I[i].wait() >> sp_sb & 1 && left) {
      if (I[i].op() == 0x94d)
        return std::nullopt;
      I[i].m |= 1u << 6;
      left = 0;
    }
    if (std::find(sp_sharers.begin(), sp_sharers.end(), i) != sp_sharers.end())
      left++;
  }
  if (left)
    return std::nullopt;
  return Split{std::move(I), true};
}

// The single share for lack of a free index at `p` (an LDCU) moves to index 6.
std::optional<Split> split_single_share(std::vector<Insn> I, size_t p, size_t end,
                                        const std::vector<PendingLoad> &pend_at_cand) {
  // The wait that retires the shared index after the LDCU, in the
  // straight-line prefix: ptxas puts it at the first reader of either
  // producer.
  std::optional<size_t> wait;
  for (size_t i = p + 1; i < end && !wait; i++)
    if (I[i].wait() >> I[p].wr() & 1)
      wait = i;
  auto reader = first_uniform_reader(I, p, end);
  if (!wait || !reader || *reader < *wait)
    return std::nullopt;
  size_t moved = p, at = *reader;
  if (*reader == *wait) {
    // The LDCU's reader is the shared wait: the other producer on that index
    // (an LDCU, the only one pending there) moves to its own first reader
    // instead.
    std::optional<size_t> other;
    for (const PendingLoad &q : pend_at_cand)
      if (q.sb == I[p].wr()) {
        if (other || q.insn == 0 || (I[q.insn].op() != 0x7ac && I[q.insn].op() != 0x919))
          return std::nullopt;
        other = q.insn;
      }
    if (!other)
      return std::nullopt;
    auto r = I[*other].op() == 0x7ac ? first_uniform_reader(I, *other, end)
                                     : next_wait_before_reader(I, *other, *wait, end);
    if (!r || *r <= *wait)
      return std::nullopt;
    moved = *other;
    at = *r;
  }
  I[moved].w = 6;
  I[at].m |= 1u << 6;
  return Split{std::move(I)};
}

std::optional<Split> split_pressure_share(std::vector<Insn> I) {
  if (I[0].lo != kStackPointerLoad || I[0].wr() == 7)
    return Split{std::move(I)};
  const unsigned sp_sb = I[0].wr();
  auto prefix_end = straight_line_end(I);
  if (!prefix_end)
    return std::nullopt;
  const size_t end = *prefix_end;
  std::vector<PendingLoad> pend, pend_at_cand;
  SpSharers sh;
  std::vector<size_t> &sp_sharers = sh.at; // take the stack-pointer load's index
  std::optional<size_t> cand; // shares one while all six are pending
  size_t pressure_shares = 0;
  for (size_t i = 0; i < end; i++) {
    const Insn &f = I[i];
    std::erase_if(pend, [&](const PendingLoad &p) { return f.wait() >> p.sb & 1; });
    if (f.rd() != 7)
      pend.push_back({i, f.rd()});
    if (f.wr() == 7)
      continue;
    unsigned busy = 0;
    bool sp = false;
    for (const PendingLoad &p : pend) {
      busy |= 1u << p.sb;
      sp |= p.insn == 0;
    }
    // (Only for lack of a free index: launch_params' k_lb, whose predicated
    // LDC takes it with indices free, is not re-finalized by nvlink at all.)
    // ptxas also shares the stack-pointer load's index with indices 0-4
    // pending and 5 free (real-world corpus: haxpy, fwt, clenergy).
    if (i > 0 && sp && f.wr() == sp_sb && (busy == 63 || busy == 31)) {
      if (f.op() != 0x7ac && f.op() != 0xb82 && f.op() != 0x919)
        return std::nullopt;
      if (sp_sharers.empty())
        sh.pend_at_first = pend;
      else if (sp_sharers.size() == 1)
        sh.pend_at_second = pend;
      if (busy == 31)
        sh.with_5_free = true;
      sp_sharers.push_back(i);
    } else if (i > 0 && sp && (busy >> f.wr() & 1) && busy == 63) {
      if (!cand) {
        cand = i;
        pend_at_cand = pend;
      }
      pressure_shares++;
    }
    pend.push_back({i, f.wr()});
  }
  if (!sp_sharers.empty())
    return split_sp_sharers(std::move(I), sp_sb, end, cand, std::move(sh));
  if (!cand)
    return Split{std::move(I)};
  if (pressure_shares != 1 || I[*cand].op() != 0x7ac)
    return std::nullopt;
  return split_single_share(std::move(I), *cand, end, pend_at_cand);
}

// The kernel's opening region, for kernels the whole-kernel path keeps
// (docs/notes/refinalization.md, "The opening region alone"): the
// straight-line code from the start up to the first instruction on entry to
// which, after its waits, nothing is pending; every producer in it a
// register or constant load of class start 0 (LDC, LDCU, S2R, S2UR) with a
// write scoreboard only. Each producer's need is the instruction whose wait
// retires it in ptxas's code (for a shared LDCU: its first reader). Both
// ptxas (with the stack-pointer load) and nvlink (without it) allocate the
// region the same way (measured on the real-world corpus: rod-srad2,
// rod-dwt2d, hec-dct8x8, cs-tensor-cores, hec-linearprobing; golden case
// refin_opening_region), over K indices (0-4, or 0-5 where ptxas used 5), in
// instruction order:
// * a producer read at its need (certain) joins a pending index of the same
//   certain need, also with indices free (srad_cuda_2's S2R and LDC at 0x10
//   and 0x20, both read at 0xa0);
// * otherwise it takes the lowest free index;
// * otherwise it joins the pending index needed first at or after its own
//   need (lowest index on a tie), whose wait moves to its need if that comes
//   first.
// The rule must reproduce ptxas's own controls of the region before it is
// used without the stack-pointer load; the code after the region keeps
// ptxas's controls. nullopt (and the reason in *why) when the region is
// outside this form.
namespace prefix {

struct Group {
  unsigned sb;
  size_t need;  // the instruction whose wait retires it
  bool certain; // a producer of that need is read there
};

// Indices of the region's producers (position in `prods`), or nullopt.
std::optional<std::vector<unsigned>> simulate(const std::vector<size_t> &prods,
                                              const std::vector<size_t> &need,
                                              const std::vector<bool> &certain, unsigned K,
                                              std::vector<size_t> *group_need) {
  std::vector<Group> pend;
  std::vector<unsigned> out;
  for (size_t k = 0; k < prods.size(); k++) {
    size_t i = prods[k];
    std::erase_if(pend, [&](const Group &g) { return g.need <= i; });
    unsigned busy = 0;
    for (const Group &g : pend)
      busy |= 1u << g.sb;
    std::optional<unsigned> pick;
    if (certain[k])
      for (const Group &g : pend)
        if (g.certain && g.need == need[k] && (!pick || g.sb < *pick))
          pick = g.sb;
    for (unsigned s = 0; s < K && !pick; s++)
      if (!(busy >> s & 1))
        pick = s;
    if (!pick) {
      // The pending index needed first at or after its own need.
      const Group *best = nullptr;
      for (const Group &g : pend)
        if (g.need >= need[k] && (!best || g.need < best->need || (g.need == best->need && g.sb < best->sb)))
          best = &g;
      if (!best)
        return std::nullopt;
      pick = best->sb;
    }
    bool found = false;
    for (Group &g : pend)
      if (g.sb == *pick) {
        if (need[k] < g.need)
          g.certain = certain[k];
        else if (need[k] == g.need)
          g.certain = g.certain || certain[k];
        g.need = std::min(g.need, need[k]);
        found = true;
      }
    if (!found)
      pend.push_back({*pick, need[k], certain[k]});
    out.push_back(*pick);
  }
  if (group_need) {
    // Each producer's wait: the earliest need of its index's group while it
    // was pending (recomputed by a second pass).
    group_need->assign(prods.size(), 0);
    std::vector<std::pair<unsigned, std::vector<size_t>>> open; // sb -> members
    std::vector<size_t> open_need;
    pend.clear();
    auto close = [&](size_t at) {
      for (size_t g = 0; g < open.size();) {
        if (open_need[g] <= at) {
          for (size_t m : open[g].second)
            (*group_need)[m] = open_need[g];
          open.erase(open.begin() + ptrdiff_t(g));
          open_need.erase(open_need.begin() + ptrdiff_t(g));
        } else {
          g++;
        }
      }
    };
    for (size_t k = 0; k < prods.size(); k++) {
      close(prods[k]);
      bool joined = false;
      for (size_t g = 0; g < open.size(); g++)
        if (open[g].first == out[k]) {
          open[g].second.push_back(k);
          open_need[g] = std::min(open_need[g], need[k]);
          joined = true;
        }
      if (!joined) {
        open.push_back({out[k], {k}});
        open_need.push_back(need[k]);
      }
    }
    close(SIZE_MAX);
  }
  return out;
}

} // namespace prefix

// Nothing is pending on entry to the opening region's end and nothing flows
// back into the region, so the code after it is allocated from the same state
// with or without the stack-pointer load: it keeps ptxas's controls
// (measured: srad_cuda_2, whose later code the whole-kernel model does not
// reproduce, keeps them in nvlink's output). The region's producers `rest`
// take the indices `fresh`, waited on at `wait_at` (regroup_prefix, below).
std::vector<Controls> regrouped_controls(const std::vector<Insn> &I, size_t region_end,
                                         const std::vector<size_t> &rest,
                                         const std::vector<unsigned> &fresh,
                                         const std::vector<size_t> &wait_at) {
  std::vector<Controls> out(I.size());
  for (size_t i = 0; i < I.size(); i++)
    out[i] = {I[i].wr(), I[i].rd(), I[i].wait()};
  out[0] = {7, 7, 0};
  for (size_t i = 1; i <= region_end; i++)
    out[i].wait = 0;
  for (size_t x = 0; x < rest.size(); x++) {
    out[rest[x]].wr = fresh[x];
    out[wait_at[x]].wait |= 1u << fresh[x];
  }
  return out;
}

std::optional<std::vector<Controls>> regroup_prefix(const std::vector<Insn> &I, const char **why) {
  auto fail = [&](const char *w) -> std::optional<std::vector<Controls>> {
    *why = w;
    return std::nullopt;
  };
  size_t n = I.size();
  if (I[0].lo != kStackPointerLoad || I[0].wr() == 7)
    return std::nullopt;
  // Straight-line prefix, as in split_pressure_share (a branch ending it may
  // carry waits).
  auto prefix_end = straight_line_end(I);
  if (!prefix_end)
    return fail("a branch target outside the code");
  const size_t end = *prefix_end;
  size_t last = end < n && is_branch(I[end]) ? end + 1 : end;
  struct Pending {
    size_t k; // position in prods
    unsigned sb;
  };
  std::vector<size_t> prods;            // instruction of each producer (the first: the load)
  std::vector<size_t> need;             // its retiring instruction
  std::vector<Pending> pend;
  std::optional<size_t> region_end;
  for (size_t i = 0; i < last && !region_end; i++) {
    const Insn &f = I[i];
    for (const Pending &p : pend)
      if (f.wait() >> p.sb & 1)
        need[p.k] = i;
    std::erase_if(pend, [&](const Pending &p) { return f.wait() >> p.sb & 1; });
    if (i > 0 && pend.empty()) {
      region_end = i;
      break;
    }
    if (f.rd() != 7)
      return fail("a read scoreboard before its end");
    if (f.wr() == 7)
      continue;
    if (f.op() != 0x7ac && f.op() != 0xb82 && f.op() != 0x919 && f.op() != 0x9c3)
      return fail("a producer other than LDC, LDCU, S2R, S2UR before its end");
    pend.push_back({prods.size(), f.wr()});
    prods.push_back(i);
    need.push_back(SIZE_MAX);
  }
  if (!region_end || prods.size() < 2)
    return fail("not closed before the first branch");
  // A producer's need: ptxas's wait on it, except that an LDCU sharing an
  // index is needed at its first reader (hec-dct8x8's LDCU at 0x20, read at
  // 0xc0 but waited at 0xb0 with the S2R at 0x60 in ptxas's code: nvlink
  // waits at 0xc0). Certain: its destination is read there (an LDCU's by the
  // uniform-operand forms, another's named in bits 24-31, 32-39 or 64-71);
  // only producers of a certain need join one another with indices free
  // (srad_cuda_2's LDC at 0x60 does not join the LDCU at 0x30, waited at
  // the same 0x100 in ptxas's code but not read there as far as decoded).
  std::vector<bool> certain(prods.size(), false), unsure(prods.size(), false);
  bool unread_sp_sharer = false;
  for (size_t x = 1; x < prods.size(); x++) {
    size_t p = prods[x];
    // A sharer of the stack-pointer load's index waited on (with it) by a
    // predicated EXIT or BRA, which reads no register (checked below).
    if (I[p].wr() == I[0].wr() && need[x] == need[0] &&
        (is_branch(I[need[x]]) || I[need[x]].op() == 0x94d))
      unread_sp_sharer = true;
    bool shared = false;
    for (size_t y = 1; y < prods.size(); y++)
      shared |= y != x && I[prods[y]].wr() == I[p].wr() && need[y] == need[x];
    if (I[p].op() == 0x7ac) {
      auto r = first_uniform_reader(I, p, last);
      // (A reader not found, for an opcode not decoded on the way: ptxas's
      // wait stands, not certain, and only while another producer's earlier
      // need decides where nvlink waits on it; srad_cuda_2's LDCU at 0x30.)
      if (r && *r == need[x])
        certain[x] = true;
      else if (shared && r && *r < need[x])
        return fail("an LDCU read before its wait");
      else if (shared && r)
        need[x] = *r;
      else if (shared)
        unsure[x] = true;
      continue;
    }
    const Insn &w = I[need[x]];
    unsigned d = I[p].dest();
    certain[x] = d != 0xff && ((w.lo >> 24 & 0xff) == d || (w.lo >> 32 & 0xff) == d || (w.hi & 0xff) == d);
  }
  // The region's controls for a simulation of `ps` (wait at each group's
  // earliest need).
  auto region_controls = [&](const std::vector<size_t> &ps, const std::vector<unsigned> &sb,
                             const std::vector<size_t> &wait_at) {
    std::vector<Controls> c(*region_end + 1);
    for (size_t i = 0; i <= *region_end; i++)
      c[i] = {i < *region_end ? 7u : I[i].wr(), I[i].rd(), 0};
    for (size_t x = 0; x < ps.size(); x++) {
      c[ps[x]].wr = sb[x];
      c[wait_at[x]].wait |= 1u << sb[x];
    }
    return c;
  };
  std::optional<unsigned> K;
  for (unsigned k : {5u, 6u}) {
    std::vector<size_t> wait_at;
    auto self = prefix::simulate(prods, need, certain, k, &wait_at);
    if (!self)
      continue;
    auto c = region_controls(prods, *self, wait_at);
    bool same = true;
    for (size_t i = 0; same && i <= *region_end; i++)
      same = c[i] == Controls{I[i].wr(), I[i].rd(), I[i].wait()};
    if (same) {
      K = k;
      break;
    }
  }
  if (!K)
    return fail("ptxas's allocation of it not reproduced");
  // With all six taken, nvlink moves a stack-pointer sharer waited on at a
  // predicated EXIT or BRA elsewhere (join_unread_sp_sharer; cs-nvml-
  // matrixMul's S2UR at 0x70, waited on at the @P0 BRA at 0xb0, joins the
  // index retired at 0x80 with 5 free); not modelled. With 5 free it keeps
  // that wait on its own index, as the rule gives (rod-dwt2d's LDCU at 0x50,
  // the fwt rule above).
  if (*K == 6 && unread_sp_sharer)
    return fail("a stack-pointer sharer waited on at a predicated EXIT or BRA with all six taken");
  std::vector<size_t> rest(prods.begin() + 1, prods.end()), rest_need(need.begin() + 1, need.end());
  std::vector<bool> rest_certain(certain.begin() + 1, certain.end());
  std::vector<size_t> wait_at;
  auto fresh = prefix::simulate(rest, rest_need, rest_certain, *K, &wait_at);
  if (!fresh)
    return fail("no index to join");
  for (size_t x = 0; x < rest.size(); x++)
    if (unsure[x + 1] && wait_at[x] >= rest_need[x])
      return fail("an LDCU of undecoded reader decides a wait"); // (hec-dct8x8 at sm_120 if its LDCU's reader were not decoded)
  return regrouped_controls(I, *region_end, rest, *fresh, wait_at);
}

std::optional<std::vector<Insn>> decode(std::span<const u8> code, bool sp_scoreboard) {
  if (code.size() % 16 || code.size() < 32 || code.size() / 16 > kMaxInstructions)
    return std::nullopt;
  std::vector<sass::Instruction> words = sass::decode(code);
  std::vector<Insn> I(words.begin(), words.end());
  if (I[0].lo != kStackPointerLoad || (sp_scoreboard && I[0].wr() == 7))
    return std::nullopt;
  for (const Insn &f : I)
    if (is_call(f))
      return std::nullopt;
  return I;
}

} // namespace

bool reallocate_scoreboards(std::span<u8> code) {
  return reallocate_scoreboards(code, code);
}

bool reallocate_scoreboards(std::span<const u8> original, std::span<u8> code) {
  // Without fences removed, only a stack-pointer load with a scoreboard
  // makes a difference; with them, kernels whose load has none are
  // re-finalized as well (clusters' k_cluster8).
  bool same = original.data() == code.data();
  auto orig = decode(original, same);
  auto dec = decode(code, same);
  if (!orig || !dec)
    return false;
  const std::vector<Insn> &I = *dec;
  // The model must reproduce ptxas's own allocation (with the stack-pointer
  // load) bit for bit, and the re-allocation must not depend on how a
  // backward branch's waits are read (kernels where it does are not
  // reproduced reliably: docs/notes/refinalization.md); otherwise keep the
  // input.
  const char *why = "";
  auto self_check = [&]() {
    auto self = allocate(*orig, false, Interference::kLoopHeader, false, &why);
    if (!self) {
      log::debug("refinalize: kept: outside the model (self-check: {})", why);
      return false;
    }
    for (size_t i = 0; i < orig->size(); i++)
      if (!((*self)[i] == Controls{(*orig)[i].wr(), (*orig)[i].rd(), (*orig)[i].wait()})) {
        log::debug("refinalize: kept: ptxas's allocation not reproduced at {:#x} (op {:#x}; ptxas wr {} rd {} wait "
                   "{:#x}, model wr {} rd {} wait {:#x})",
                   i * 16, (*orig)[i].op(), (*orig)[i].wr(), (*orig)[i].rd(), (*orig)[i].wait(), (*self)[i].wr,
                   (*self)[i].rd, (*self)[i].wait);
        return false;
      }
    return true;
  };
  // The allocation of a split kernel; nullopt (and a logged reason) when it
  // is outside the model.
  auto reallocate = [&](const Split &split) -> std::optional<std::vector<Controls>> {
    auto fresh = allocate(split.code, true, Interference::kLoopHeader, split.sp_group, &why);
    auto cross = allocate(split.code, true, Interference::kAcrossBackEdge, split.sp_group);
    if (fresh && cross && *fresh == *cross)
      return fresh;
    if (fresh && cross)
      for (size_t i = 0; i < I.size(); i++)
        if (!((*fresh)[i] == (*cross)[i])) {
          log::debug("refinalize: kept: the re-allocation depends on the backward-edge reading (first at {:#x})",
                     i * 16);
          return std::nullopt;
        }
    log::debug("refinalize: kept: re-allocation outside the model ({})", fresh ? "cross-check" : why);
    return std::nullopt;
  };
  std::optional<std::vector<Controls>> fresh;
  if (self_check()) {
    if (auto split = split_pressure_share(I))
      fresh = reallocate(*split);
    else
      log::debug("refinalize: kept: a pressure share that is not modelled");
  }
  // Otherwise, when only the kernel's opening region is re-allocated by
  // nvlink (regroup_prefix), that region alone.
  if (!fresh && same) {
    const char *region_why = "";
    fresh = regroup_prefix(I, &region_why);
    if (fresh)
      log::debug("refinalize: the opening region re-allocated, the rest kept");
    else if (*region_why)
      log::debug("refinalize: kept: opening region: {}", region_why);
  }
  if (!fresh)
    return false;
  for (size_t i = 0; i < I.size(); i++) {
    const Controls &c = (*fresh)[i];
    sass::write(I[i].with_controls(c.wr, c.rd, c.wait), code.data() + i * sass::kInstructionSize);
  }
  return true;
}

void refinalize_kernels(Context &ctx) {
  // --dlink-no-refinalize (research): the kernels keep ptxas's code, the
  // input against which nvlink's re-finalization is compared.
  // nvlink -g re-finalizes no kernel either (measured: every sm_100+ kernel
  // keeps ptxas's code, -G exit MEMBARs included; docs/notes/debug-link.md).
  if (!ctx.arch.is_mercury() || ctx.opts.dlink_no_refinalize || ctx.opts.debug)
    return;
  // Launch bounds do not matter (EIATTR_MAX_THREADS kernels are re-finalized
  // too); kernels nvlink leaves alone, such as launch_params' k_lb, fail the
  // model's check on ptxas's own allocation.
  // A kernel with a stack frame of its own (local memory through R1) keeps
  // its scoreboards.
  std::unordered_set<const OutputSection *> has_frame;
  for (const OutputSection *sec : ctx.out.sections)
    if (sec->kind == SectionKind::ModuleInfo)
      for (const InfoRecord &r : sec->records)
        if (r.attr == EIATTR_FRAME_SIZE && r.sym && r.sym->section && r.payload.size() >= 8 &&
            read_le<u32>(r.payload.data() + 4) != 0)
          has_frame.insert(r.sym->section);
  for (OutputSection *sec : ctx.out.sections) {
    if (sec->removed || !sec->name.starts_with(".text.") || sec->data.size() != sec->size)
      continue;
    if (!find_section(ctx, ".nv.info." + std::string(sec->name.substr(6))))
      continue;
    if (has_frame.contains(sec)) {
      // Its scoreboards stay; -G exit MEMBARs still go (semantics-findings §21).
      refinalize_fence_kernel(ctx, *sec, /*exit_membars_only_allowed=*/true);
      continue;
    }
    if (refinalize_fence_kernel(ctx, *sec) == FenceRewrite::NoFences) {
      std::vector<u8> original = sec->data;
      bool rewritten = reallocate_scoreboards(sec->data);
      // Every rewrite is checked against ptxas's code (sass_verify.h);
      // a kernel that fails keeps ptxas's code.
      if (rewritten)
        if (auto v = sass::verify_refinalized(original, sec->data); !v.ok) {
          sec->data = std::move(original);
          log::debug("refinalize: {}: kept: verifier: {}", sec->name, v.reason);
          continue;
        }
      log::debug("refinalize: {}: {}", sec->name, rewritten ? "scoreboards re-allocated" : "kept");
    }
  }
}

} // namespace dlink
