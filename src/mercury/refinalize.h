// sm_100+: the scoreboard re-allocation nvlink applies to kernels it
// re-finalizes from their capsule (docs/notes/refinalization.md).
#pragma once

#include "link_context.h"
#include "mercury/sass_verify.h"

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace dlink {

// Scoreboard re-allocation of one kernel's SASS (16-byte instructions) whose
// first instruction is the stack-pointer load `LDC R1, c[0x0][0x37c]` with a
// write scoreboard. Model (measured on the golden corpus and probes, see the
// note): the scoreboards are allocated again in instruction order, over the
// control-flow graph, with the stack-pointer load dropped: rd before wr, the
// lowest index not used by an interfering producer (pending together at some
// point, or meeting at a loop head over a backward edge; global loads start
// at 2, 0x9a3 at 5); producers that shared a scoreboard while pending keep
// sharing; every wait is re-targeted to the producers it retired. Safety: the
// model must reproduce the input's own allocation exactly (with the
// stack-pointer load) and give the same result when backward branches' waits
// are not applied across the edge. Producers that share a scoreboard for lack
// of a free one while the stack-pointer load is pending get the index it frees
// where the note's rules say how (its sharers as a group; else one LDCU, with
// its wait moved to its first reader); kernels where a producer shares the
// stack-pointer load's index otherwise, or shares one for lack of a free index
// in a way not modelled, has a CALL, or is not in that shape are left alone. Returns true
// when `code` was rewritten (only bits 110-121 of instructions change).
bool reallocate_scoreboards(std::span<u8> code);

// The same, with the model's check made on `original` (ptxas's code) and the
// allocation computed for `code` (`original` with the release-fence padding
// taken out, refinalize_fences.cpp). Returns true when `code` was rewritten.
bool reallocate_scoreboards(std::span<const u8> original, std::span<u8> code);

// sm_100+: a re-finalized kernel loses the padding of its release fences
// (`@!PT LDS RZ,[RZ]` x4 and the CTA MEMBAR before a GPU/SYS MEMBAR), with
// every offset that depends on it (docs/notes/refinalization.md).
enum class FenceRewrite {
  NoFences,  // nothing to remove: the plain scoreboard re-allocation applies
  Rewritten, // removed, scoreboards re-allocated, offsets fixed up
  Kept,      // outside the measured model: the kernel keeps ptxas's code
};
// What a kernel's rewrite computes from its code alone (the padding found
// and removed, the scoreboards re-allocated, the verifier's verdict), made
// for every kernel at once before the rewrites are committed in section
// order (refinalize_kernels). It stands only for the exact code it was made
// from (`input`).
struct KernelWork;
// exit_membars_only_allowed: only the -G exit MEMBARs may go (a kernel with a
// stack frame of its own: nvlink removes those but keeps its scoreboards).
// work: that kernel's precomputed part, used where `text` still holds its
// input (else computed here).
FenceRewrite refinalize_fence_kernel(Context &ctx, OutputSection &text,
                                     bool exit_membars_only_allowed = false, KernelWork *work = nullptr);

// The code part of it: the padding found, removed, branch offsets (BRA,
// BSSY) and the trailing NOP padding redone. Scoreboards are not touched.
struct FenceStrip {
  enum Status { NoFences, Outside, Stripped } status = NoFences;
  std::vector<u8> code;      // Stripped: the new code
  std::vector<bool> removed; // per input instruction
  std::vector<size_t> pos;   // per input instruction (and the end): new index
  size_t end = 0;            // input instructions before the trailing NOPs
  size_t pairs = 0;          // CTA+GPU/SYS MEMBAR pairs (one CTA MEMBAR removed each)
  size_t exit_membars = 0;   // -G: MEMBARs before an exit, removed (semantics-findings §21)
  size_t block_fences = 0;   // padding before a lone block-scope MEMBAR (it stays)
  const char *why = "";      // Outside: what is outside the measured form
};
FenceStrip strip_fence_padding(std::span<const u8> code);

struct KernelWork {
  std::vector<u8> input;
  FenceStrip fence;             // Stripped: fence.code re-allocated (when `fence_scoreboards`)
  bool fence_scoreboards = false;
  std::optional<sass::VerifyResult> fence_verdict;
  std::vector<u8> plain;        // NoFences: the plain re-allocation's result
  bool plain_rewritten = false;
  std::optional<sass::VerifyResult> plain_verdict;
  bool holds(std::span<const u8> code) const {
    return code.size() == input.size() && std::equal(code.begin(), code.end(), input.begin());
  }
};
// Fills it for one kernel's code (no Context: safe to run for many kernels
// at once).
KernelWork prepare_kernel_work(std::span<const u8> code);

// The capsule's part: each fence record (one per MEMBAR pair) re-encoded and
// the check field in its last u16 updated; nullopt outside the measured form.
// (-G: also one record per removed exit MEMBAR, `exit_membars`; a lone
// block-scope MEMBAR's padding: its record's prefix goes, `block_fences`.)
std::optional<std::vector<u8>> recode_fence_capsule(std::span<const u8> capsule, size_t pairs,
                                                    size_t exit_membars = 0, size_t block_fences = 0);

// -g (sm_100+): kernels compiled without -G get the debug exit sequence
// before each EXIT (MEMBAR, 0x9ab, 0x5ab, with the EXIT's predicate), with
// every offset that moves and the capsule's exit records
// (docs/notes/debug-link.md). The code part: branch offsets (a branch to an
// EXIT goes to its sequence), the NOP padding redone.
struct DebugExitCode {
  enum Status { NoExits, Outside, Inserted } status = NoExits;
  std::vector<u8> code;        // Inserted: the new code
  std::vector<size_t> pos;     // per input instruction (and the end): new index
  std::vector<size_t> before;  // the same, of the code inserted before it
  std::vector<size_t> exits;   // the EXITs (input indices)
  size_t end = 0;              // input instructions before the trailing NOPs
  const char *why = "";        // Outside: what is outside the measured form
  // Inserted: a predicated EXIT right after a producer with stall 6 or more
  // keeps ptxas's waits where nvlink sometimes adds one (rule not found).
  bool unmodelled_exit_wait = false;
};
// `jump_targets`: the instruction indices the kernel's BRX jump tables hold
// (nullptr: not known, and a BRX is outside the measured form). nvlink leaves
// the tables as they are; measured only where no target moves, so a target
// after an EXIT is outside the form too.
DebugExitCode insert_debug_exit_code(std::span<const u8> code,
                                     const std::vector<size_t> *jump_targets = nullptr);

// The capsule's part: an exit record in each EXIT's item and the check
// token advanced; nullopt outside the measured form.
std::optional<std::vector<u8>> insert_debug_exit_records(std::span<const u8> capsule,
                                                         std::span<const u8> code);

// A kernel whose stack-pointer load is still pending at an EXIT of its
// opening basic block: nvlink -g waits on it there and allocates the
// scoreboards after it again (refinalize.cpp's model). True when `code` was
// rewritten, false when the case does not apply, nullopt when it applies but
// is outside the model (the code is left as it was).
std::optional<bool> wait_stack_pointer_at_first_exit(std::span<u8> code);

enum class DebugExitRewrite { NoExits, Rewritten, Refused };
DebugExitRewrite insert_debug_exits(Context &ctx, OutputSection &text, std::string *why);

// -g on sm_100+, executable and -r links: the kernels of inputs compiled
// without -G get the debug exit sequence (insert_debug_exits; a fatal error
// where that is outside what was measured). Without -suppress-debug-info
// nvlink re-finalizes no kernel (-G ones keep ptxas's code, exit MEMBARs
// included); with it the sequence goes in only where some input was compiled
// with -G, and every kernel is then re-finalized as without -g
// (glink_suppress_ptx: the inserted MEMBAR goes again in a call-free kernel).
void insert_debug_exit_sequences(Context &ctx);

// Applies reallocate_scoreboards to every kernel (a .text.<f> with a
// .nv.info.<f>) without a stack frame of its own; launch bounds do not
// matter. sm_100+ only; with -g insert_debug_exit_sequences instead.
void refinalize_kernels(Context &ctx);

} // namespace dlink
