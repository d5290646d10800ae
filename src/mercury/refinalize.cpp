// sm_100+: scoreboard re-allocation of re-finalized kernels (refinalize.h).
#include "refinalize.h"
#include "refinalize_model.h"

#include "debug_link.h"
#include "output_model.h"
#include "dlink/log.h"
#include "sass.h"
#include "sass_verify.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace dlink {

namespace {

using namespace refinalize_model;

constexpr size_t kMaxInstructions = 1 << 16;

using sass::branch_target;
using sass::is_branch;
using sass::is_call;
using sass::is_control;
using sass::guarded_registers;
using sass::must_wait_for_guarded;
using sass::passes_pending_memory;
using sass::Guarded;

using sass::Bits;
using sass::BitRows;
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

enum class Interference {
  // A producer interferes with what is pending at its own instruction and
  // with what is pending together with it on entry to the first leader after
  // it (interference()); in addition, at the target of a backward branch,
  // what arrives over the backward edge before the branch's own waits meets
  // what is pending there on entry. ptxas's allocation and nvlink's.
  kLoopHeader,
  // The same, but a backward branch's waits do not retire what flows over the
  // backward edge (it stays pending into the next iteration until an
  // instruction there waits on its index). Used only as a cross-check.
  kAcrossBackEdge,
};

constexpr size_t kMaxProducers = 8192;
constexpr size_t kNoGroup = ~size_t(0);
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
  BitRows before, in, out, retired;
  Bits crossing = Bits(0); // pending on entry to some basic block
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
    // (A predicated EXIT ends a basic block too, for the class-5 rule of
    // loads pending across blocks: probes q16, q23.)
    bool l = M.preds[j].size() != 1 || (j > 0 && (is_branch(I[j - 1]) || I[j - 1].op() == 0x94d));
    for (const Model::Edge &e : M.preds[j])
      if (e.from + 1 != j)
        l = true;
    M.leader[j] = l;
  }
  return true;
}

// Whether producer x is still pending on entry to a basic block.
bool crosses_block(const Flow &F, size_t x) { return F.crossing.test(x); }

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
  Flow F{BitRows(n, np), BitRows(n, np), BitRows(n, np), BitRows(n, np), Bits(np)};
  // The producers on each scoreboard index: a wait's mask selects them a
  // word at a time.
  unsigned top = 0;
  for (const Producer &p : M.prods)
    top = std::max(top, p.sb);
  std::vector<Bits> on_index(std::min(top, 31u) + 1, Bits(np));
  for (size_t x = 0; x < np; x++)
    if (M.prods[x].sb < 32)
      on_index[M.prods[x].sb].set(x);
  Bits st(np), waited(np);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < n; i++) {
      st.clear();
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
      unsigned mask = M.I[i].wait();
      waited.clear();
      for (unsigned k = 0; k < on_index.size(); k++)
        if (mask >> k & 1)
          waited |= on_index[k];
      // The waits of 0x948 do not retire: what they wait on stays pending
      // up to the next wait on it (measured: k_tiles' warp-sync blocks).
      bool retires = M.I[i].op() != 0x948;
      u64 *w = F.retired[i].data();
      for (size_t k = 0; k < st.w.size(); k++) {
        w[k] = st.w[k] & waited.w[k];
        if (retires)
          st.w[k] &= ~waited.w[k];
      }
      F.in[i] = st;
      for (size_t x : M.gen[i])
        st.set(x);
      if (!(st == F.out[i])) {
        F.out[i] = st;
        changed = true;
      }
    }
  }
  for (size_t j = 0; j < n; j++)
    if (M.leader[j])
      F.crossing |= F.before[j];
  return F;
}

// The instruction whose wait retires producer x in ptxas's code, in the
// straight-line code after x (it may be the leader that ends it); nullopt
// where none does there.
std::optional<size_t> retiring_wait(const Model &M, const Flow &F, size_t x) {
  for (size_t k = M.prods[x].insn + 1; k < M.n; k++) {
    if (F.retired[k].test(x))
      return k;
    if (M.leader[k])
      return std::nullopt;
  }
  return std::nullopt;
}

// Whether the wait that retires producer x in ptxas's code (in the
// straight-line code after it) leaves x's result unread, where the registers
// x guards are known. (Splitting also where only the producer x joined is
// unread there gained no real-world kernel and lost some of HeCBench
// radixsort2's at sm_100.)
bool join_unread(const Model &M, const Flow &F, size_t x) {
  auto regs = sass::guarded_registers(M.I[M.prods[x].insn], false);
  if (!regs)
    return false;
  std::optional<size_t> k = retiring_wait(M, F, x);
  return k && !sass::names_guarded(M.I[*k], *regs);
}

// Whether the wait that retires producer x in ptxas's code (in the
// straight-line code after it) reads none of the results of the producers x
// shares an index with (those pending at x on that index), where the
// registers of all of them are known: the share makes them wait before
// their first reader.
bool partners_unread(const Model &M, const Flow &F, size_t x) {
  std::vector<sass::Guarded> partners;
  bool unknown = false;
  F.in[M.prods[x].insn].for_each_set([&](size_t y) {
    if (M.prods[y].sb != M.prods[x].sb || unknown)
      return;
    auto regs = sass::guarded_registers(M.I[M.prods[y].insn], M.prods[y].read);
    if (!regs)
      unknown = true;
    else
      partners.push_back(*regs);
  });
  if (unknown || partners.empty())
    return false;
  std::optional<size_t> k = retiring_wait(M, F, x);
  if (!k)
    return false;
  for (const sass::Guarded &g : partners)
    if (sass::names_guarded(M.I[*k], g))
      return false;
  return true;
}

// Groups: a producer that takes a scoreboard still pending shares it.
// nullopt for shares the model does not cover. share_if_full: per producer
// split from its share, the group it rejoins where no index is free for it
// (kNoGroup for the others).
std::optional<std::vector<size_t>> share_groups(const Model &M, const Flow &F, bool drop_first,
                                                bool keep_pressure_shares, bool refinalization_rules,
                                                std::vector<size_t> &share_if_full, const char **why) {
  const std::vector<Insn> &I = M.I;
  const std::vector<Producer> &prods = M.prods;
  const size_t np = M.np;
  std::vector<size_t> group(np);
  share_if_full.assign(np, kNoGroup);
  for (size_t x = 0; x < np; x++) {
    group[x] = x;
    size_t i = prods[x].insn;
    unsigned busy = 0;
    F.in[i].for_each_set([&](size_t y) {
      busy |= 1u << prods[y].sb;
      if (prods[y].sb == prods[x].sb && group[x] == x)
        group[x] = group[y];
    });
    // (An instruction's write scoreboard on the index of its own read
    // scoreboard is a share too: HeCBench hadamard's SHFLs (0xf89) with all
    // six taken at sm_100; 4 kernels reproduced.)
    for (size_t y : M.gen[i])
      if (y < x) {
        busy |= 1u << prods[y].sb;
        if (refinalization_rules && prods[y].sb == prods[x].sb && group[x] == x)
          group[x] = group[y];
      }
    // A global load sharing the index of a global load split from that same
    // share (below) joins the split one: ptxas's group of loads stays one
    // in nvlink's code (HeCBench secp256k1 at sm_100: the LDGs at 0x70-0x130
    // share the LDCU of UR8's 2 in ptxas's code, take 5 together in nvlink's).
    if (group[x] != x && !prods[x].read && (I[i].op() == 0x981 || I[i].op() == 0x980))
      F.in[i].for_each_set([&](size_t y) {
        if (prods[y].sb == prods[x].sb && !prods[y].read && share_if_full[y] != kNoGroup &&
            share_if_full[y] == group[x] && (I[prods[y].insn].op() == 0x981 || I[prods[y].insn].op() == 0x980))
          group[x] = group[y];
      });
    if (group[x] != x) {
      unsigned s = class_start(I[i], prods[x].read, crosses_block(F, x));
      bool free_left = false;
      for (unsigned k = s; k < 6; k++)
        if (!(busy >> k & 1))
          free_left = true;
      // Shared for lack of a free index: while the stack-pointer load (the
      // first producer, which nvlink drops) is pending nvlink has an index
      // more there, and after it nvlink's allocation before may have left
      // one free (below). Where it has none, nvlink keeps the share
      // (assign_indices: the split producer rejoins).
      bool sp_pending = I[0].lo == kStackPointerLoad && !M.gen[0].empty() && F.in[i].test(M.gen[0].back());
      // (Global loads' read scoreboards on an index held only by other
      // global loads' read scoreboards are ptxas's grouping, which nvlink
      // keeps: real-world hec-compute-score's LDGs at 0xd0-0x110.)
      bool grouped_reads = prods[x].read && I[i].op() == 0x981;
      for (size_t y = 0; y < np && grouped_reads; y++)
        if (F.in[i].test(y) && prods[y].sb == prods[x].sb)
          grouped_reads = prods[y].read && I[prods[y].insn].op() == 0x981;
      // (A share on the virtual index 6 is one split_pressure_share made.)
      // (A share on the stack-pointer load's own index stays one: that index
      // is the one nvlink has more, and the load's other sharers take it
      // below, so this producer still has none of its own. HeCBench
      // attention's blockReduce and CUB's single-tile reduce kernels at
      // sm_120: LDSs at 0x3d0 and 0x3e0 on ptxas's 0, on nvlink's 5; 32
      // kernels over the three real-world sets reproduced, none lost.) So
      // does a read scoreboard's share: nvlink keeps it though an index is
      // free (CUB's DeviceReduceSingleTileKernel in HeCBench tsne, ssim,
      // laplace and logic-rewrite: the last LDG's read scoreboard on the
      // LDC's index; 10 kernels reproduced, none lost).
      // A producer that joined a pending index with only 5 free (ptxas keeps
      // 5 for last) while the stack-pointer load is pending, not read by the
      // wait that retires the share: without that load an index below 5 is
      // free, and nvlink gives it that index, waited on at its first reader
      // (defer_uncoupled_waits), as the opening region's rule has it for a
      // producer not read at its need (HeCBench ldpc's two vnp kernels at
      // sm_100 and sm_120: the S2R of R3 at 0x70 (0x80) joins the LDCU at 0x50
      // (0x60), retired at the LDG at 0xb0, and R3 is read at 0xc0; nvlink's
      // S2R takes 4, waited on at 0xc0; 4 kernels as nvlink writes them, none
      // lost).
      if (drop_first && free_left && sp_pending && s == 0 && !prods[x].read && prods[x].sb != 6 &&
          !keep_pressure_shares && group[x] != M.gen[0].back() && (busy & 63) == 31 &&
          join_unread(M, F, x)) {
        group[x] = x;
        continue;
      }
      // A global load sharing other global loads' index, where the wait that
      // retires the share reads its result and theirs, keeps the share: no
      // wait moves (Thrust's int sum reductions at sm_120, CUB's
      // DeviceReduceSingleTileKernel: the LDGs of R10 and R11 at 0x1970 and
      // 0x1980 on ptxas's 5, both read at 0x1a10, share 4 in nvlink's code;
      // the LDG of R9 at 0x1990, read at 0x1a30 where ptxas's wait for its
      // share with the LDGs of R16 and R18 reads neither, takes 5. HeCBench
      // deredundancy's kernel_filter at sm_100: the LDG of R3 at 0xf20,
      // unread at the wait at 0xfb0, takes its own index.)
      auto keeps_global_share = [&] {
        const unsigned partner = I[prods[group[x]].insn].op();
        return s == 2 && (partner == 0x981 || partner == 0x980) && !partners_unread(M, F, x) &&
               !join_unread(M, F, x);
      };
      // (Also where the stack-pointer load is no longer pending: nvlink's
      // allocation before may have left an index free where ptxas's had
      // none. Thrust's norm reduction at sm_100: the LDG of R28 at 0x1cb0
      // joins ptxas's 3 with 2-5 taken; in nvlink's code 4 is free there and
      // it takes 4.)
      if (drop_first && !free_left && (s == 0 || s == 2) && prods[x].sb != 6 &&
          !keep_pressure_shares && !grouped_reads && group[x] != M.gen[0].back() && !prods[x].read &&
          !keeps_global_share()) {
        // Without that load an index is free there: the producer takes one
        // of its own, and the wait that retired both retires both indices
        // (HeCBench's first set at sm_100/sm_120: 7 kernels as nvlink
        // writes them, none lost; 2 others become re-allocations other than
        // nvlink's, not examined, verified like every rewrite).
        // A global load (indices from 2) gets one only where dropping the
        // load moves a pending producer below 2 (CUB's
        // DeviceReduceSingleTileKernel: an LDC on ptxas's 2, pending on the
        // path past the early exit, and the LDG at 0x1b0 sharing it; nvlink's
        // LDC is on 1 and the LDG on 5); where 2-5 stay taken, the share
        // stays (probe x8; assign_indices). So does any other producer's
        // where no index is left for it (assign_indices).
        share_if_full[x] = group[x];
        group[x] = x;
        continue;
      }
    }
  }
  // A producer taking the stack-pointer load's index while that load is
  // pending: nvlink gives it an index as to any other producer, and those
  // pending together keep sharing one (real-world hec-winograd's LDG at 0x390
  // at sm_120; hec-lavaMD's LDSs at 0x6c0 and 0x720, both on 4 in nvlink's
  // output). Not a predicated LDC: launch_params' k_lb, whose predicated LDC
  // does so with indices free, is not re-finalized by nvlink at all (not
  // modelled). An unpredicated one is like the others (HeCBench mask's four
  // lower/upper mask kernels at sm_120: ptxas's 0 with 5 free, nvlink's 4; 4
  // kernels reproduced, none lost).
  if (drop_first && I[0].lo == kStackPointerLoad && !M.gen[0].empty()) {
    const size_t sp = M.gen[0].back();
    std::vector<size_t> released;
    for (size_t x = sp + 1; x < np; x++) {
      if (group[x] != sp)
        continue;
      if (I[prods[x].insn].op() == sass::op::kLdc && I[prods[x].insn].pred() != 7) {
        // (One that shares it for lack of any other index, all six pending,
        // is a pressure share like the others: Thrust's int sum reductions
        // at sm_120, CUB's DeviceReduceSingleTileKernel, the @P0 LDC at
        // 0x3770 on ptxas's 0 with 1-5 pending, on nvlink's 1.)
        unsigned busy = 0;
        F.in[prods[x].insn].for_each_set([&](size_t y) { busy |= 1u << prods[y].sb; });
        for (size_t y : M.gen[prods[x].insn])
          if (y < x)
            busy |= 1u << prods[y].sb;
        if ((busy & 63) != 63) {
          *why = "an LDC on the stack-pointer load's index";
          return std::nullopt;
        }
      }
      group[x] = x;
      for (size_t y : released)
        if (F.in[prods[x].insn].test(y)) {
          group[x] = group[y];
          break;
        }
      released.push_back(x);
    }
  }
  return group;
}

// Interference between producers (per `mode`): pending together at the first
// leader after a producer, or everywhere without `near_meets`.
std::vector<Bits> interference(const Model &M, const Flow &F, Interference mode, bool near_meets) {
  std::vector<Bits> co(M.np, Bits(M.np));
  auto meet = [&](const auto &st) { st.for_each_set([&](size_t x) { co[x] |= st; }); };
  Flow G = mode == Interference::kAcrossBackEdge ? pending_flow(M, true) : Flow{};
  const Flow &H = mode == Interference::kAcrossBackEdge ? G : F;
  // Beyond what is pending at its own instruction (assign_indices), a
  // producer meets only what is pending together with it on entry to the
  // first leader after it (a branch target or the instruction after a
  // branch): ptxas does not look further. Measured on the real-world corpus
  // (self-check failures, i.e. ptxas's own allocation not reproduced:
  // HeCBench's fourth set at sm_120 139 -> 119 kernels, set 3 at sm_100
  // 86 -> 59, the first set at sm_100 96 -> 49; 7 more kernels as nvlink
  // writes them, none lost). HeCBench tsne's CUB reduce kernel at sm_100:
  // the shared store at 0xf30 takes index 1, which a store at 0xb20 holds
  // on the path that branches from 0xb80 to the kernel's final BSYNC at
  // 0x41a0, far past the store's own BSYNC at 0xf40.
  // (The -g exit wait keeps meets everywhere: with the first leader only,
  // its two readings of backward branches part on HeCBench dense-embedding's
  // kernels at sm_120, which it then keeps.)
  if (near_meets) {
    std::vector<size_t> next_leader(M.n + 1, M.n);
    for (size_t k = M.n; k-- > 0;)
      next_leader[k] = k + 1 < M.n && M.leader[k + 1] ? k + 1 : next_leader[k + 1];
    for (size_t x = 0; x < M.np; x++) {
      size_t j = next_leader[M.prods[x].insn];
      if (j < M.n && H.before[j].test(x))
        co[x] |= H.before[j];
    }
  } else {
    for (size_t i = 0; i < M.n; i++) {
      meet(H.before[i]);
      meet(H.out[i]);
    }
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

// Waits in the re-allocated code retire whatever is pending on their
// indices, not only what ptxas's waits there retired: where two producers
// that ptxas kept apart share an index, the wait for one retires the other.
// (Thrust's bounding-box reduce kernels at sm_100: nvlink's wait at 0x3270
// for the shared stores' read scoreboards also retires the shuffles' read
// scoreboards, put on the same index, and the load at 0x3270 then takes it;
// ptxas's waits keep the shuffles' on their own index until 0x3300, whose
// wait in nvlink's code then leaves that index alone.) Looked for within a
// basic block, which every path into its later instructions passes.
class IndexRetirement {
public:
  IndexRetirement(const Model &M, const Flow &F, const std::vector<int> &assign)
      : M_(M), F_(F), assign_(assign) {}

  // Whether producer y, pending at instruction i (after its waits) by
  // ptxas's waits, is retired there in the re-allocated code. Asked in
  // instruction order, after every producer issued before i has its index.
  bool retired_at(size_t y, size_t i) {
    advance_to(i);
    return assign_[y] >= 0 && last_[size_t(assign_[y])] > i64(M_.prods[y].insn);
  }

private:
  // Runs the block's waits up to instruction i: per index, the last
  // instruction of i's block whose wait retires it (-1: none).
  void advance_to(size_t i) {
    for (; next_ <= i; next_++) {
      const size_t k = next_;
      if (M_.leader[k] || k == 0)
        last_.fill(-1);
      unsigned m = 0;
      F_.retired[k].for_each_set([&](size_t z) {
        const int b = assign_[z];
        if (b >= 0 && !(last_[size_t(b)] > i64(M_.prods[z].insn)))
          m |= 1u << b;
      });
      if (M_.I[k].op() != 0x948)
        for (size_t b = 0; b < last_.size(); b++)
          if (m >> b & 1)
            last_[b] = i64(k);
    }
  }

  const Model &M_;
  const Flow &F_;
  const std::vector<int> &assign_;
  size_t next_ = 0;
  std::array<i64, 8> last_{};
};

// The registers whose next use retires producer x: what its scoreboard
// guards (sass.h), and for a global or shared load's read scoreboard its
// address register pair (bits 24-31; overwriting it waits: Thrust's norm
// reduction at sm_100, the IMAD.WIDE of R14 at 0x1bb0 waits for the LDG
// from [R14] at 0x1ad0).
std::optional<sass::Guarded> needed_registers(const Model &M, size_t x) {
  const Insn &f = M.I[M.prods[x].insn];
  if (M.prods[x].read && (f.op() == 0x981 || f.op() == 0x980 || f.op() == 0x984)) {
    const unsigned a = unsigned(f.lo >> 24 & 0xff);
    if (a >= 254 || a % 2)
      return std::nullopt;
    sass::Guarded g;
    g.general.set(a);
    g.general.set(a + 1);
    return g;
  }
  return sass::guarded_registers(f, M.prods[x].read);
}

// The first instruction after i in its straight-line code that has to wait
// for producer x (the block's end: none there); nullopt where x's registers
// are unknown.
std::optional<size_t> first_need(const Model &M, const Flow &F, size_t x, size_t i) {
  auto regs = needed_registers(M, x);
  if (!regs)
    return std::nullopt;
  const bool read = M.prods[x].read;
  // (A load names its destination as wide as it loads, its address as a
  // pair.)
  auto needs = [&](const Insn &g) {
    const unsigned op = g.op();
    if (op != 0x980 && op != 0x981 && op != 0x984)
      return sass::must_wait_for_guarded(g, *regs, read);
    const unsigned w = sass::access_width(g), d = g.dest(), a = unsigned(g.lo >> 24 & 0xff);
    if (!w)
      return sass::must_wait_for_guarded(g, *regs, read);
    for (unsigned r = d; r < d + w && r < 255; r++)
      if (regs->general.test(r))
        return true;
    if (!read && a < 255)
      for (unsigned r = a; r < a + 2 && r < 255; r++)
        if (regs->general.test(r))
          return true;
    return false;
  };
  size_t k = i + 1;
  for (; k < M.n && !M.leader[k]; k++)
    if (needs(M.I[k]))
      break;
  // (Operand widths are upper bounds: ptxas's own wait for x, where it comes
  // later, is nearer the real first use. Thrust's norm reduction at sm_100:
  // the LDG of R23 at 0x1c20, whose IMAD.WIDE of R20 at 0x1d50 may name R23
  // by width, is waited on at 0x1e30, its reader.)
  for (size_t r = k; r < M.n && !M.leader[r]; r++)
    if (F.retired[r].test(x)) {
      k = r;
      break;
    }
  return k;
}

// For a producer that finds every index of its class pending at its
// instruction: the pending index whose producers are first needed nearest to
// where x itself is, so that the share moves a wait least (-1 where a
// register is not known or two indices tie in need and in the producer
// that took them last).
int nearest_needed_index(const Model &M, const Flow &F, const std::vector<int> &assign, size_t x,
                         unsigned here, unsigned from) {
  const size_t i = M.prods[x].insn;
  std::optional<size_t> own = first_need(M, F, x, i);
  if (!own)
    return -1;
  std::array<size_t, 6> need, latest{};
  need.fill(SIZE_MAX);
  bool unknown = false;
  auto consider = [&](size_t y) {
    const int b = assign[y];
    if (unknown || b < int(from) || b > 5 || !(here >> b & 1))
      return;
    std::optional<size_t> k = first_need(M, F, y, i);
    if (!k) {
      unknown = true;
      return;
    }
    need[size_t(b)] = std::min(need[size_t(b)], *k);
    latest[size_t(b)] = std::max(latest[size_t(b)], M.prods[y].insn + 1);
  };
  F.in[i].for_each_set(consider);
  for (size_t y : M.gen[i])
    if (y < x)
      consider(y);
  if (unknown)
    return -1;
  int best = -1;
  size_t best_cost = SIZE_MAX;
  bool tie = false;
  for (unsigned b = from; b < 6; b++) {
    if (need[b] == SIZE_MAX)
      return -1;
    const size_t cost = need[b] > *own ? need[b] - *own : *own - need[b];
    if (cost < best_cost) {
      best = int(b);
      best_cost = cost;
      tie = false;
    } else if (cost == best_cost) {
      // (Equally near: the index taken last. A Thrust sum of absolute values
      // of our own at sm_100: the LDG of R25 at 0x1d40, read at 0x1fd0,
      // finds 4 and 5 both first needed at 0x1f10 and shares 5, taken by the
      // LDG at 0x1d00.)
      if (latest[b] > latest[size_t(best)]) {
        best = int(b);
        tie = false;
      } else if (latest[b] == latest[size_t(best)]) {
        tie = true;
      }
    }
  }
  return tie ? -1 : best;
}

// The index of each producer (-1: the dropped stack-pointer load), lowest
// first from its class start; nullopt when none is free.
std::optional<std::vector<int>> assign_indices(const Model &M, const Flow &F,
                                               const std::vector<size_t> &group,
                                               const std::vector<size_t> &share_if_full,
                                               const std::vector<Bits> &co, bool drop_first,
                                               bool keep_pressure_shares) {
  const std::vector<Producer> &prods = M.prods;
  const size_t np = M.np;
  std::vector<int> assign(np, -1);
  IndexRetirement retirement(M, F, assign);
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
    // (Pending here, met elsewhere in another group, or an earlier producer
    // of the same instruction.)
    unsigned here = 0, busy = 0;
    auto take = [&](unsigned &to, size_t y) {
      if (assign[y] >= 0)
        to |= 1u << assign[y];
    };
    F.in[i].for_each_set([&](size_t y) {
      if (!retirement.retired_at(y, i))
        take(here, y);
    });
    for (size_t y : M.gen[i])
      if (y < x)
        take(here, y);
    busy = here;
    co[x].for_each_set([&](size_t y) {
      if (group[y] != group[x])
        take(busy, y);
    });
    unsigned s = class_start(M.I[i], prods[x].read, crosses_block(F, x));
    int pick = -1;
    // An index from 0 taken only by producers this one meets elsewhere (at a
    // join or loop head), not pending at its own instruction: with 0-4 all
    // taken so, ptxas shares the lowest of them that is not pending here
    // rather than taking 5 (measured: HeCBench bh's BoundingBoxKernel at
    // sm_120, a chain of `if` blocks each ending in a shared store whose read
    // scoreboard is never waited on: the stores take 0, 1, 2, 3, 4, then 0
    // again with 5 free; 10 real-world kernels at sm_100/sm_120 reproduced,
    // none lost). 5 stays the last resort, as for a producer that finds 0-4
    // pending at its own instruction (radix sort's six LDSs take 0-5).
    unsigned top = s == 0 ? 5 : 6;
    for (unsigned k = s; k < top && pick < 0; k++)
      if (!(busy >> k & 1))
        pick = int(k);
    // (A global load split from its share above shares again when 2-5 are
    // taken here as well.)
    const bool rejoins = share_if_full[x] != kNoGroup && assign[share_if_full[x]] >= 0;
    if (pick < 0 && s == 2 && rejoins) {
      assign[x] = assign[share_if_full[x]];
      continue;
    }
    // The same for a global load or atomic (indices from 2) that finds 2-5
    // all taken, some only by producers met elsewhere: it shares the lowest
    // index from 2 not pending here (HeCBench mnist's fp_preact/bp kernels,
    // mmcsf's MTTKRP kernels, bm3d, graphB+ at sm_100/sm_120: loads in
    // several branches that meet at the joins; 18 kernels reproduced, none
    // lost; golden case refin_join_share_global).
    if (pick < 0) {
      // The indices pending at this instruction (not only met elsewhere).
      for (unsigned k = s; k < top && pick < 0; k++)
        if (!(here >> k & 1))
          pick = int(k);
      if (pick < 0 && top == 5 && !(busy >> 5 & 1))
        pick = 5;
    }
    // Any other producer split from its share shares again when no index is
    // free for it: the index dropping the stack-pointer load frees went to an
    // earlier producer (CUB's DeviceReduceSingleTileKernel at sm_100: the
    // shared load at 0xf10 takes the freed 5, and the one at 0xf30 keeps
    // ptxas's share with the shuffles' read scoreboards).
    if (pick < 0 && rejoins) {
      assign[x] = assign[share_if_full[x]];
      continue;
    }
    // Below the class start while the stack-pointer load's sharers hold the
    // freed index: nvlink shares an index there instead (probe q03's second
    // global load takes the first one's 2); not modelled.
    if (pick < 0 && keep_pressure_shares)
      return std::nullopt;
    // A global load that finds 2-5 pending at its own instruction shares the
    // one whose producers are first needed nearest to its own first reader,
    // not an index below 2 (Thrust's int sum reductions at sm_120: the LDGs
    // of R0, R4, R6, R7 at 0x19c0-0x1a00, first read at 0x1a50, with ptxas's
    // 4 taken by nvlink's share at 0x1980 and the LDC of 0x1930 on 1, share
    // 3, whose loads are first read at 0x1a40). So does any producer that
    // finds all six pending (Thrust's norm reduction at sm_100: the read
    // scoreboard of the LDG from [R20] at 0x1b60, needed by the IMAD.WIDE of
    // R20 at 0x1c10, takes 4, the LDG from [R10]'s, needed at 0x1c00; its
    // write scoreboard 5, with R10's load, read at 0x1de0 before R27 at
    // 0x1df0).
    if (pick < 0 && drop_first && (s == 2 || (here & 63) == 63))
      pick = nearest_needed_index(M, F, assign, x, here, s);
    for (unsigned k = 0; k < 6 && pick < 0; k++)
      if (!(busy >> k & 1))
        pick = int(k);
    if (pick < 0) {
      log::debug("refinalize: no free index for the {} scoreboard at {:#x} (indices taken {:#x}, pending there {:#x})",
                 prods[x].read ? "read" : "write", i * 16, busy, here);
      return std::nullopt;
    }
    assign[x] = pick;
  }
  return assign;
}

// Whether instruction i of the straight-line code continues the one before
// it (its only predecessor).
bool continues(const Model &M, size_t i) {
  return i < M.n && M.preds[i].size() == 1 && M.preds[i][0].from + 1 == i && !M.leader[i];
}

// A wait that ptxas placed for one producer retires every other on the same
// index with it. Where the re-allocation separates them, nvlink waits for
// the other at its own first use instead: an instruction that names one of
// the registers its scoreboard guards (a load's result, a store's sources),
// or takes its new index, or waits on it anyway (measured, real-world corpus
// at sm_100 and sm_120: HeCBench deredundancy's kernel_filter, the global
// loads of R17 and R3 shared 5 in ptxas's code, waited on at 0xfb0, which
// reads R17; nvlink puts them on 4 and 5 and waits on 5 at 0xfd0, which reads
// R3; radixsort's and scan2's loops, where ptxas's wait for a shared store's
// read scoreboard sits at a load that takes the store's index, and nvlink's,
// with the store on another index, at the next instruction that writes a
// store register or takes that index). Only in straight-line code after the
// wait, where every instruction is one that cannot end a path; elsewhere the
// wait stays.
void defer_uncoupled_waits(const Model &M, const Flow &F, const std::vector<int> &assign, const BitRows &out,
                           std::vector<unsigned> &mask) {
  const size_t n = M.n, np = M.np;
  Bits st(np);
  // ptxas's waits for the stack-pointer load that the re-allocation drops:
  // on its index, before any other producer takes that index.
  std::vector<bool> sp_wait(n, false);
  if (M.I[0].lo == kStackPointerLoad && !M.gen[0].empty() && assign[M.gen[0].back()] < 0) {
    const unsigned sb = M.I[0].wr();
    for (size_t j = 1; j < n; j++) {
      sp_wait[j] = M.I[j].wait() >> sb & 1;
      if (M.I[j].wr() == sb || M.I[j].rd() == sb)
        break;
    }
  }
  for (size_t i = 0; i < n; i++) {
    if (!mask[i] || is_control(M.I[i]))
      continue;
    st.clear();
    for (const Model::Edge &e : M.preds[i])
      st |= out[e.from];
    unsigned own = 0; // indices instruction i's producers take
    for (size_t x : M.gen[i])
      if (assign[x] >= 0)
        own |= 1u << assign[x];
    for (unsigned b = 0; b < 6; b++) {
      if (!(mask[i] >> b & 1) || (own >> b & 1))
        continue;
      // What the wait on b retires here, and the registers that guards.
      std::vector<std::pair<Guarded, bool>> on_b; // (registers, a read scoreboard's)
      bool movable = true;
      st.for_each_set([&](size_t z) {
        if (!movable || assign[z] != int(b))
          return;
        // (One that ptxas's wait here does not retire, put on b by the
        // re-allocation, is retired wherever the wait goes: Thrust's int sum
        // reductions at sm_120, the wait at 0x1a30 for the LDGs of R16 and
        // R18 on 3, which the LDGs at 0x19c0-0x1a00 share in nvlink's code,
        // moves to their first reader at 0x1a40.)
        if (!F.retired[i].test(z))
          return;
        auto regs = guarded_registers(M.I[M.prods[z].insn], M.prods[z].read);
        // Coupled in ptxas's code: retired here with a producer on the same
        // ptxas index that the re-allocation put on another index, or
        // because instruction i took that index.
        bool coupled = false;
        if (F.retired[i].test(z)) {
          F.retired[i].for_each_set([&](size_t y) {
            if (y != z && M.prods[y].sb == M.prods[z].sb && assign[y] != int(b))
              coupled = true;
          });
          for (size_t y : M.gen[i])
            if (M.prods[y].sb == M.prods[z].sb)
              coupled = true;
        }
        if (!regs || !coupled || must_wait_for_guarded(M.I[i], *regs, M.prods[z].read))
          movable = false;
        else
          on_b.emplace_back(*regs, M.prods[z].read);
      });
      if (!movable || on_b.empty())
        continue;
      std::optional<size_t> to;
      for (size_t j = i + 1; continues(M, j) && !to; j++) {
        const Insn &g = M.I[j];
        if (is_control(g) || is_call(g))
          break;
        // (A barrier or a memory operation other than a load waits for
        // them: ptxas waits there for a shared store's read scoreboard.)
        bool use = (mask[j] >> b & 1) || !passes_pending_memory(g);
        // (Where ptxas waited for the stack-pointer load: HeCBench secp256k1
        // at sm_100, the LDCU of UR8 shared with the LDGs at 0x2c0, waited
        // on at 0x4c0, whose wait on that load goes.)
        use |= sp_wait[j];
        for (size_t y : M.gen[j])
          use |= assign[y] == int(b);
        for (const auto &[regs, read] : on_b)
          use |= must_wait_for_guarded(g, regs, read);
        if (use)
          to = j;
      }
      if (to) {
        mask[i] &= ~(1u << b);
        mask[*to] |= 1u << b;
      }
    }
  }
}

// Each instruction's wait mask in the re-allocated code: the indices of the
// producers ptxas's wait there retires that are still pending there, where a
// wait retires everything pending on its indices (as in IndexRetirement).
std::vector<unsigned> waits_on_new_indices(const Model &M, const Flow &F, const std::vector<int> &assign) {
  const size_t n = M.n, np = M.np;
  std::vector<unsigned> mask(n, 0);
  // Where every producer keeps ptxas's index, ptxas's waits retire by
  // index already: the masks are those of the flow.
  bool same = true;
  for (size_t x = 0; x < np && same; x++)
    same = assign[x] == int(M.prods[x].sb);
  if (same) {
    for (size_t i = 0; i < n; i++)
      F.retired[i].for_each_set([&](size_t z) { mask[i] |= 1u << assign[z]; });
    return mask;
  }
  // The producers on each new index (a wait's mask selects them a word at a
  // time); the dropped stack-pointer load is never pending.
  std::array<Bits, 6> on_index;
  on_index.fill(Bits(np));
  for (size_t x = 0; x < np; x++)
    if (assign[x] >= 0)
      on_index[size_t(assign[x])].set(x);
  BitRows out(n, np);
  Bits st(np);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < n; i++) {
      st.clear();
      for (const Model::Edge &e : M.preds[i])
        st |= out[e.from];
      unsigned m = 0;
      F.retired[i].for_each_set([&](size_t z) {
        if (assign[z] >= 0 && st.test(z))
          m |= 1u << assign[z];
      });
      mask[i] = m;
      if (M.I[i].op() != 0x948)
        for (size_t b = 0; b < on_index.size(); b++)
          if (m >> b & 1)
            for (size_t w = 0; w < st.w.size(); w++)
              st.w[w] &= ~on_index[b].w[w];
      for (size_t x : M.gen[i])
        if (assign[x] >= 0)
          st.set(x);
      if (!(out[i] == st)) {
        out[i] = st;
        changed = true;
      }
    }
  }
  defer_uncoupled_waits(M, F, assign, out, mask);
  return mask;
}

// Writes the re-allocated controls. An instruction whose scoreboard the next
// one waits on keeps at least 2 stall cycles: nvlink's output never has fewer
// there (every sm_100+ kernel of the golden and real-world corpora: 49,000
// such pairs, none below 2), and nvlink raises
// ptxas's 1 to 2 where its re-allocation creates such a pair (real-world
// hec-graphExecution's reduceFinal, the LDCU at 0xb0).
void write_controls(const std::vector<Insn> &I, const std::vector<Controls> &fresh, std::span<u8> code) {
  for (size_t i = 0; i < I.size(); i++) {
    const Controls &c = fresh[i];
    sass::Instruction f = I[i].with_controls(c.wr, c.rd, c.wait);
    if (i + 1 < I.size() && f.stall() < 2 && sass::waits_on(fresh[i + 1].wait, c.wr, c.rd))
      f = f.with_stall(2);
    sass::write(f, code.data() + i * sass::kInstructionSize);
  }
}

// Runs the allocation model. nullopt when the kernel is outside the model.
// keep_pressure_shares: the stack-pointer load's index goes to the producers
// that shared it (split_pressure_share), so shares for lack of a free index
// stay as they are.
// refinalization_rules: the rules measured on the kernels nvlink
// re-finalizes: an instruction's write scoreboard on its own read
// scoreboard's index is a share, and producers meet only at the first leader
// after them. Off for the -g exit wait, whose re-allocation of such kernels
// is not nvlink's (HeCBench tsne's reduce kernels at sm_100,
// dense-embedding's at sm_120).
std::optional<std::vector<Controls>> allocate(const std::vector<Insn> &I, bool drop_first,
                                              Interference mode, bool keep_pressure_shares = false,
                                              const char **why = nullptr, bool refinalization_rules = true) {
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
  std::vector<size_t> share_if_full;
  auto group = share_groups(M, F, drop_first, keep_pressure_shares, refinalization_rules, share_if_full, &share_why);
  if (!group)
    return fail(share_why);
  std::vector<Bits> co = interference(M, F, mode, refinalization_rules);
  auto assign = assign_indices(M, F, *group, share_if_full, co, drop_first, keep_pressure_shares);
  if (!assign)
    return fail("no free index");
  // Each instruction's controls: its producers' indices and the indices of
  // what its wait retires.
  std::vector<unsigned> waits = waits_on_new_indices(M, F, *assign);
  std::vector<Controls> res(M.n);
  for (size_t i = 0; i < M.n; i++) {
    Controls c{7, 7, waits[i]};
    for (size_t x : M.gen[i])
      if ((*assign)[x] >= 0)
        (M.prods[x].read ? c.rd : c.wr) = unsigned((*assign)[x]);
    res[i] = c;
  }
  return res;
}

std::optional<std::vector<Insn>> decode(std::span<const u8> code, bool sp_scoreboard,
                                        const char **why = nullptr) {
  auto fail = [&](const char *reason) -> std::optional<std::vector<Insn>> {
    if (why)
      *why = reason;
    return std::nullopt;
  };
  if (code.size() % 16 || code.size() < 32 || code.size() / 16 > kMaxInstructions)
    return fail("size");
  std::vector<sass::Instruction> words = sass::decode(code);
  std::vector<Insn> I(words.begin(), words.end());
  if (I[0].lo != kStackPointerLoad)
    return fail("no stack-pointer load first");
  if (sp_scoreboard && I[0].wr() == 7)
    return fail("the stack-pointer load has no scoreboard (nothing to re-allocate)");
  for (const Insn &f : I)
    if (is_call(f))
      return fail("a call");
  // (The load's scoreboard goes only where nothing reads its result; the
  // verifier requires the same. A kernel with a stack frame of its own is
  // not offered here at all: refinalize_kernels.)
  if (I[0].wr() != 7 && !sass::r1_unused(words))
    return fail("the stack pointer is read");
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
  const char *decode_why = "";
  auto orig = decode(original, same, &decode_why);
  auto dec = decode(code, same, &decode_why);
  if (!orig || !dec) {
    log::debug("refinalize: not re-allocated: {}", decode_why);
    return false;
  }
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
    // Where the two readings of a backward branch's waits disagree, nvlink
    // follows the loop-header reading in 8 of the 10 kernels measured
    // (hec-sobol at sm_100/sm_120, probes y2, y5, fence_f11 at both) and
    // the other in w4's (two shared stores in the loop): the loop-header
    // reading is taken, and verified like every rewrite.
    if (fresh && cross)
      for (size_t i = 0; i < I.size(); i++)
        if (!((*fresh)[i] == (*cross)[i])) {
          log::debug("refinalize: the backward-edge readings differ (first at {:#x}): the loop-header reading",
                     i * 16);
          return fresh;
        }
    log::debug("refinalize: kept: re-allocation outside the model ({})", fresh ? "cross-check" : why);
    return std::nullopt;
  };
  std::optional<std::vector<Controls>> fresh;
  if (self_check()) {
    const char *split_why = "";
    if (auto split = split_pressure_share(I, &split_why))
      fresh = reallocate(*split);
    else
      log::debug("refinalize: kept: a pressure share that is not modelled ({})", split_why);
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
  write_controls(I, *fresh, code);
  return true;
}

std::optional<bool> wait_stack_pointer_at_first_exit(std::span<u8> code) {
  if (code.size() % 16 || code.size() < 32 || code.size() / 16 > kMaxInstructions)
    return false;
  std::vector<sass::Instruction> words = sass::decode(code);
  std::vector<Insn> I(words.begin(), words.end());
  const size_t n = I.size();
  if (I[0].lo != kStackPointerLoad || I[0].wr() == 7)
    return false;
  const unsigned sb = I[0].wr();
  // The opening basic block: up to the first branch, exit or branch target.
  std::vector<bool> target(n + 1, false);
  for (size_t i = 0; i < n; i++) {
    if (is_branch(I[i])) {
      auto t = branch_target(i, I[i], n);
      if (!t)
        return std::nullopt;
      target[*t] = true;
    } else if ((I[i].op() & 0x1ff) == 0x145) { // BSSY
      int64_t t = int64_t(i) + 1 + sass::bssy_offset(I[i].lo) / 16;
      if (t < 0 || t > int64_t(n))
        return std::nullopt;
      target[size_t(t)] = true;
    }
  }
  size_t e = 1;
  for (; e < n; e++) {
    if (target[e] || (I[e].wait() >> sb & 1))
      return false;
    if (I[e].op() == sass::op::kExit)
      break;
    if (is_branch(I[e]) || (I[e].op() & 0xff0) == 0x940)
      return false;
  }
  if (e == n)
    return false;
  // ptxas's allocation reproduced, then allocated again with that wait.
  const char *why = "";
  auto self = allocate(I, false, Interference::kLoopHeader, false, &why, /*refinalization_rules=*/false);
  if (!self) {
    log::debug("refinalize: -g exit wait: outside the model (self-check: {})", why);
    return std::nullopt;
  }
  for (size_t i = 0; i < n; i++)
    if (!((*self)[i] == Controls{I[i].wr(), I[i].rd(), I[i].wait()})) {
      log::debug("refinalize: -g exit wait: ptxas's allocation not reproduced at {:#x}", i * 16);
      return std::nullopt;
    }
  I[e].m |= 1u << sb;
  auto fresh = allocate(I, false, Interference::kLoopHeader, false, &why, false);
  auto cross = allocate(I, false, Interference::kAcrossBackEdge, false, nullptr, false);
  if (!fresh || !cross || !(*fresh == *cross)) {
    log::debug("refinalize: -g exit wait: re-allocation outside the model ({})", fresh ? "cross-check" : why);
    return std::nullopt;
  }
  std::vector<u8> original(code.begin(), code.end());
  write_controls(I, *fresh, code);
  if (auto v = sass::verify_refinalized(original, code); !v.ok) {
    std::copy(original.begin(), original.end(), code.begin());
    log::debug("refinalize: -g exit wait: verifier: {}", v.reason);
    return std::nullopt;
  }
  return true;
}

void insert_debug_exit_sequences(Context &ctx) {
  if (!ctx.arch.is_mercury())
    return;
  // (-suppress-debug-info, and links without -g: only where an input
  // compiled with -G has code, live or not: glink_suppress_ptx, glink_mixed,
  // glink_cdp have the sequence, call_2tu and dlink_ptx, without -G inputs,
  // do not; without -g measured on a kernel beside a -G one, executable and
  // -r links, and differential-ptx --mode gmix: a -G module without
  // functions gives no sequence, one whose functions are all removed does.)
  if (!writes_debug_info(ctx) &&
      std::none_of(ctx.inputs.begin(), ctx.inputs.end(), [](const InputObject *obj) {
        return compiled_with_device_debug(*obj) &&
               std::any_of(obj->symbols.begin(), obj->symbols.end(), [](const ElfSymbol &s) {
                 return s.type() == STT_FUNC && s.shndx != SHN_UNDEF;
               });
      }))
    return;
  for (OutputSection *sec : ctx.out.sections) {
    if (sec->removed || !sec->name.starts_with(".text.") || !sec->func || !(sec->func->other & STO_CUDA_ENTRY))
      continue;
    const InputObject *obj = sec->func->defined_in;
    if (!obj || compiled_with_device_debug(*obj))
      continue;

    // (-suppress-debug-info: nvlink then re-finalizes the kernel with the
    // sequence in ways not measured: glink_mixed's kli keeps ptxas's
    // scoreboards in dlink's model but not in nvlink's, and libcudadevrt's
    // memset kernels lose code; glink_suppress_ptx alone matched. The
    // kernel gets the sequence here and refinalize_kernels' model, checked
    // by the verifier, afterwards. A weak kernel replaced by a later
    // input's copy gets the sequence as any other: weak_kernel_replaced,
    // relocatable_weak_kernel and preserve_relocs_weak_replaced identical on
    // all six sm_100+ targets.)
    std::string why;
    if (insert_debug_exits(ctx, *sec, &why) != DebugExitRewrite::Refused)
      continue;
    // Outside what was measured (an EXIT inside a multi-instruction capsule
    // item, a BRX target after an EXIT, a -lineinfo row the re-encoding
    // does not cover, ...): the kernel keeps ptxas's code without the
    // sequence. It runs as ptxas wrote it; nvlink's image differs.
    log::debug("debug exits: {} (in '{}'): kept without the sequence: {}", sec->name, obj->name, why);
  }
}

void refinalize_kernels(Context &ctx) {
  if (!ctx.arch.is_mercury())
    return;
  insert_debug_exit_sequences(ctx);
  if (writes_debug_info(ctx)) // (-suppress-debug-info: then as without -g)
    return;
  // --dlink-no-refinalize (research): the kernels keep ptxas's code, the
  // input against which nvlink's re-finalization is compared.
  if (ctx.opts.dlink_no_refinalize)
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
  std::vector<OutputSection *> kernels;
  for (OutputSection *sec : ctx.out.sections) {
    if (sec->removed || !sec->name.starts_with(".text.") || sec->data.size() != sec->size)
      continue;
    if (!find_section(ctx, ".nv.info." + std::string(sec->name.substr(6))))
      continue;
    kernels.push_back(sec);
  }
  // What each kernel's rewrite computes from its code alone is computed for
  // all at once; the rewrites are then committed in section order, as on one
  // thread (a kernel whose code an earlier commit changed is redone there).
  // (DLINK_LOG=debug: one kernel after the other, so that each kernel's
  // reasons come together.)
  std::vector<KernelWork> work(kernels.size());
  std::vector<char> prepared(kernels.size(), 0); // (not vector<bool>: written from several threads)
  if (!ctx.par.serial() && !log::enabled(log::Level::Debug))
    ctx.par.for_each_index(kernels.size(), [&](size_t i) {
      if (has_frame.contains(kernels[i]))
        return;
      work[i] = prepare_kernel_work(kernels[i]->data);
      prepared[i] = 1;
    });
  for (size_t i = 0; i < kernels.size(); i++) {
    OutputSection *sec = kernels[i];
    if (sec->removed || sec->data.size() != sec->size) // (as an earlier commit may leave it)
      continue;
    if (has_frame.contains(sec)) {
      // Its scoreboards stay; -G exit MEMBARs still go (semantics-findings §21).
      refinalize_fence_kernel(ctx, *sec, /*exit_membars_only_allowed=*/true);
      continue;
    }
    KernelWork *w = prepared[i] && work[i].holds(sec->data) ? &work[i] : nullptr;
    if (refinalize_fence_kernel(ctx, *sec, false, w) == FenceRewrite::NoFences) {
      std::vector<u8> original = sec->data;
      bool rewritten;
      std::optional<sass::VerifyResult> verdict;
      if (w) {
        rewritten = w->plain_rewritten;
        if (rewritten)
          sec->data = std::move(w->plain);
        verdict = std::move(w->plain_verdict);
      } else {
        rewritten = reallocate_scoreboards(sec->data);
      }
      // Every rewrite is checked against ptxas's code (sass_verify.h);
      // a kernel that fails keeps ptxas's code.
      if (rewritten) {
        if (!verdict)
          verdict = sass::verify_refinalized(original, sec->data);
        if (!verdict->ok) {
          sec->data = std::move(original);
          log::debug("refinalize: {}: kept: verifier: {}", sec->name, verdict->reason);
          continue;
        }
      }
      log::debug("refinalize: {}: {}", sec->name, rewritten ? "scoreboards re-allocated" : "kept");
    }
  }
}
} // namespace dlink
