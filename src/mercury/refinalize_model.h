// sm_100+: what the scoreboard re-allocation (refinalize.cpp) shares with
// the rules for the code before the first branch (refinalize_prefix.cpp).
#pragma once

#include "sass.h"

#include <optional>
#include <vector>

namespace dlink::refinalize_model {

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

struct Controls {
  unsigned wr, rd, wait;
  bool operator==(const Controls &) const = default;
};

struct Split {
  std::vector<Insn> code;
  // The stack-pointer load's sharers got index 6, or a share for lack of an
  // index is split alone among several: the other shares stay as they are.
  bool sp_group = false;
};

// Producers that ptxas put on a pending scoreboard for lack of a free one
// (docs/notes/refinalization.md, "Device runtime"), while the stack-pointer
// load is pending; nvlink has the index that load frees:
// * those on the stack-pointer load's own index keep sharing among themselves
//   on the freed index, waited on where the stack-pointer load's wait was;
// * otherwise a single LDCU (0x7ac) sharing another producer's index gets an
//   index of its own, waited on at its first reader (or, when its reader is
//   the shared wait, the other LDCU moves to its own first reader);
// * of several shares (or a single one that is not an LDCU's), at most one
//   producer of those two cases does so and the other shares stay.
// This rewrites the input so that they have the virtual index 6 (wait mask bit
// 6); the allocation then gives it a real index. Only in straight-line code
// from the kernel's start, with every instruction up to a reader decoded.
// Returns the input unchanged when there is nothing to split, nullopt (and
// the reason in *why) when a split is needed but not modelled.
std::optional<Split> split_pressure_share(std::vector<Insn> I, const char **why);

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
std::optional<std::vector<Controls>> regroup_prefix(const std::vector<Insn> &I, const char **why);

} // namespace dlink::refinalize_model
