// sm_100+: release-fence padding removed from re-finalized kernels
// (refinalize.h; docs/notes/refinalization.md, "release fences").
//
// ptxas lowers a release at gpu/sys scope to
//     @!PT LDS RZ,[RZ] x4;  MEMBAR (CTA);  MEMBAR (GPU/SYS);  ...
// The finalizer nvlink runs on the capsule lowers it without the four
// never-executed loads and without the CTA MEMBAR. Everything after moves
// up: branch offsets, the NOP padding, the EIATTR offset lists, the FDE's
// range and advance_loc, the function's size; the capsule's fence records
// change and so does its check field. Any kernel outside what was measured
// keeps ptxas's code.
#include "refinalize.h"

#include "mercury/capsule_patch.h"

#include "elf/dwarf_frame.h"
#include "elf/dwarf_line.h"
#include "mercury/state.h"
#include "output_model.h"
#include "dlink/log.h"
#include "dlink/reloc_types.h"
#include "sass.h"
#include "sass_verify.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlink {

namespace {

using sass::bra_offset;
using sass::bssy_offset;
using sass::is_membar;
using sass::set_bra_offset;
using Ins = sass::Instruction;

constexpr u64 kLdsPadding = 0x00000000fffff984; // @!PT LDS RZ, [RZ]
constexpr u64 kLdsPaddingHi = 0x800;

bool is_pad(const Ins &f) { return f.lo == kLdsPadding && f.operands_hi() == kLdsPaddingHi; }
bool is_cta_membar(const Ins &f) { return is_membar(f) && f.operands_hi() == 0x8000; }
// GPU (0x2000/0xa000) or SYS (0x3000/0xb000) scope.
bool is_wide_membar(const Ins &f) {
  u64 h = f.operands_hi();
  return is_membar(f) && (h & ~u64(0xb000)) == 0 && (h & 0x2000);
}

// Padding to the 0x80 multiple after the last instruction, plus 0x80
// (measured on 5852 sm_100+ kernels, ptxas and nvlink alike).
size_t padded_count(size_t end) { return ((end * 16 + 0x7f) / 0x80 * 0x80 + 0x80) / 16; }

// The code of `R` with that padding of `nop`s.
std::vector<u8> padded_code(std::vector<Ins> R, const Ins &nop) {
  R.resize(padded_count(R.size()), nop);
  return sass::encode(R);
}

const std::vector<u8> kOffsetAttrs = {
    EIATTR_EXIT_INSTR_OFFSETS,         EIATTR_S2RCTAID_INSTR_OFFSETS,
    EIATTR_LD_CACHEMOD_INSTR_OFFSETS,  EIATTR_ATOM_SYS_INSTR_OFFSETS,
    EIATTR_COOP_GROUP_INSTR_OFFSETS,   EIATTR_ATOMF16_EMUL_INSTR_OFFSETS,
    EIATTR_INT_WARP_WIDE_INSTR_OFFSETS, EIATTR_SW_WAR_MEMBAR_SYS_INSTR_OFFSETS,
    EIATTR_LOCAL_CTA_ASYNC_STORE_OFFSETS,
};
// (kind, offset) pairs.
const std::vector<u8> kOffsetPairAttrs = {EIATTR_ANNOTATIONS};
// (offset, mask) pairs (measured with -g: HeCBench md and nine others at
// sm_120, each load's offset moved past the sequences before it, the mask
// 0xfff kept).
const std::vector<u8> kOffsetFirstPairAttrs = {EIATTR_UNUSED_LOAD_BYTE_OFFSET};
// 16-byte entries whose first word is an offset, the other three kept
// (measured with -g: CUB's transform kernels in Thrust's saxpy at sm_100,
// "0x2d0 0xff 0x0 0xd0100 0x4f0 0xff 0x0 0x4010a"; glink_mbarrier, whose
// mbarrier operations after an early return move with the code).
const std::vector<u8> kOffsetFirstOfFourAttrs = {EIATTR_MBARRIER_INSTR_OFFSETS};
// Records measured in re-finalized kernels that hold no code offset.
const std::vector<u8> kPlainAttrs = {
    EIATTR_BINDLESS_TEXTURE_BANK, EIATTR_BINDLESS_SURFACE_BANK,
    EIATTR_VRC_CTA_INIT_COUNT, EIATTR_MERCURY_ISA_VERSION, EIATTR_MAXREG_COUNT,
    EIATTR_SPARSE_MMA_MASK,    EIATTR_CTA_PER_CLUSTER,     EIATTR_EXPLICIT_CLUSTER,
    EIATTR_KPARAM_INFO,        EIATTR_CUDA_API_VERSION,    EIATTR_CBANK_PARAM_SIZE,
    EIATTR_PARAM_CBANK,        EIATTR_SW_WAR,              EIATTR_MAX_THREADS,
    EIATTR_REQNTID,            EIATTR_MAX_CLUSTER_RANK,    EIATTR_BLOCKS_ARE_CLUSTERS,
    EIATTR_NUM_BARRIERS,       EIATTR_CTAIDZ_USED,         EIATTR_NUM_MBARRIERS,
    EIATTR_MIN_STACK_SIZE,     EIATTR_FRAME_SIZE,          EIATTR_REGCOUNT,
    EIATTR_MAX_STACK_SIZE,     EIATTR_CRS_STACK_SIZE,      EIATTR_WMMA_USED,
    EIATTR_SW1850030_WAR,      EIATTR_SW2393858_WAR,       EIATTR_SW2861232_WAR,
    EIATTR_EXTERNS,            EIATTR_COOP_GROUP_MASK_REGIDS, EIATTR_RESERVED_SMEM_USED,
    EIATTR_RESERVED_SMEM_0_SIZE, EIATTR_SHARED_SCRATCH,
};

bool contains(const std::vector<u8> &v, u8 x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The FDE of `fn` in `.debug_frame` (64-bit format entries, as ptxas writes
// them): its offset, found through its start-address relocation.
struct Fde {
  OutputSection *sec = nullptr;
  size_t start = 0, end = 0;
  u64 code_align = 0;
};

std::optional<Fde> find_fde(Context &ctx, const OutputSymbol *fn) {
  OutputSection *frame = find_section(ctx, ".debug_frame");
  if (!frame || frame->data.size() != frame->size)
    return std::nullopt;
  std::optional<u64> at;
  for (const OutputSection *rs : ctx.out.sections)
    if (!rs->removed && rs->target == frame)
      for (const OutputReloc &r : rs->relocs)
        if (r.sym == fn) {
          if (at || r.addend != 0)
            return std::nullopt;
          at = r.offset;
        }
  const std::vector<u8> &d = frame->data;
  if (!at || *at < 20 || *at + 16 > d.size())
    return std::nullopt;
  size_t s = *at - 20;
  auto fde = frame_entry_header(d, s);
  if (!fde || fde->header != 12 || fde->cie || fde->length < 32 || s + 12 + fde->length > d.size() ||
      fde->id + 24 > d.size())
    return std::nullopt;
  // The CIE: 0xffffffff, length, id ~0, version, augmentation "", code
  // alignment factor.
  u64 cie = fde->id;
  auto head = frame_entry_header(d, cie);
  if (!head || head->header != 12 || !head->cie || d[cie + 21] != 0)
    return std::nullopt;
  auto ca = cie_code_alignment(d, cie);
  if (!ca || *ca == 0)
    return std::nullopt;
  return Fde{frame, s, s + 12 + fde->length, *ca};
}

// -lineinfo: `fn`'s line-number sequence in each line table (.debug_line,
// .nv_debug_line_sass; found through its DW_LNE_set_address relocation)
// with every address advance re-encoded for the new offsets. Without
// inserted code (`grow` false) in the same bytes (measured on fence probes
// f1-f14: nvlink rewrites the advance_pc operands in place and keeps the
// tables' sizes). With the debug exit sequence inserted (`grow`; measured on
// 24 random -lineinfo modules of 2 to 6 statements per kernel at sm_100 with
// -g, 553 changed rows, and preserve_relocs_lineinfo): a changed advance_pc
// operand takes two bytes (padded), and a special opcode whose address
// advance changed becomes advance_line, a two-byte advance_pc and copy, so
// the sequence, its unit and the table grow. `map` gives the new offset of
// an old one; the sequence's end (old_size) becomes new_size. The new bytes
// of each table, or nullopt where the sequence is outside what was measured
// (an operand that would need another length, a row in removed code, a
// special opcode with no line advance).
struct LineRewrite {
  OutputSection *table = nullptr;
  std::vector<u8> bytes;
  u64 old_end = 0; // where the sequence ended in the old bytes
  i64 delta = 0;   // how many bytes it grew
};

template <class Map>
std::optional<std::vector<LineRewrite>> rewrite_line_tables(Context &ctx, const OutputSymbol *fn,
                                                            const Map &map, u64 old_size, u64 new_size,
                                                            bool grow) {
  std::vector<LineRewrite> out;
  for (std::string_view name : {".debug_line", ".nv_debug_line_sass"}) {
    OutputSection *table = find_section(ctx, name);
    if (!table || table->removed)
      continue;
    if (table->data.size() != table->size)
      return std::nullopt;
    std::optional<u64> at;
    for (const OutputSection *rs : ctx.out.sections)
      if (!rs->removed && rs->target == table)
        for (const OutputReloc &r : rs->relocs)
          if (r.sym == fn) {
            if (at || r.addend != 0)
              return std::nullopt;
            at = r.offset;
          }
    if (!at)
      continue;
    const std::vector<u8> &d = table->data;
    // The unit holding the sequence: its header's opcode parameters.
    auto lu = line_unit_holding(d, *at);
    if (!lu || *at < lu->start + 3 + 15 || *at + 8 > lu->end)
      return std::nullopt;
    const size_t unit = lu->start, unit_end = lu->end;
    const u64 min_len = lu->min_inst_length;
    const unsigned line_range = lu->line_range, opcode_base = lu->opcode_base;
    if (min_len == 0 || line_range == 0 || opcode_base < 10 || unit + 15 + opcode_base - 1 > unit_end)
      return std::nullopt;
    size_t p = *at - 3;
    if (d[p] != 0 || d[p + 1] != 9 || d[p + 2] != 2 || read_le<u64>(d.data() + *at) != 0)
      return std::nullopt;
    p += 11;
    // The new bytes: those before the sequence's first opcode, then the
    // sequence as rewritten, then the rest.
    std::vector<u8> w(d.begin(), d.begin() + long(p));
    u64 loc = 0, new_loc = 0;
    auto advance = [&](u64 delta) -> std::optional<u64> {
      loc += delta;
      std::optional<u64> nl = loc == old_size ? std::optional<u64>(new_size) : map(loc);
      if (!nl || *nl < new_loc || (*nl - new_loc) % min_len)
        return std::nullopt;
      u64 nd = (*nl - new_loc) / min_len;
      new_loc = *nl;
      return nd;
    };
    auto put_uleb2 = [&](u64 v) {
      w.push_back(u8((v & 0x7f) | 0x80));
      w.push_back(u8(v >> 7));
    };
    bool ended = false;
    while (p < unit_end && !ended) {
      size_t start = p;
      u8 op = d[p++];
      if (op == 0) { // extended: end_sequence, or one without an address
        size_t q = p;         // (NVIDIA's 0x90 in .debug_line, -lineinfo
        auto len = read_uleb128(d, q, unit_end); // with inlined functions)
        if (!len || *len == 0 || q + *len > unit_end || d[q] == 2 || d[q] == 3)
          return std::nullopt; // (set_address, define_file)
        ended = d[q] == 1;
        p = q + *len;
      } else if (op >= opcode_base) { // special: address and line advance
        unsigned a = op - opcode_base;
        u64 old_nd = u64(a / line_range);
        auto nd = advance(old_nd * min_len);
        if (!nd)
          return std::nullopt;
        u64 nop = opcode_base + a % line_range + *nd * line_range;
        if (nop <= 255 && (!grow || *nd == old_nd)) {
          w.push_back(u8(nop));
          continue;
        }
        int line = lu->line_base + int(a % line_range);
        if (!grow || line == 0 || line < -64 || line > 63 || *nd >= 0x4000)
          return std::nullopt;
        w.push_back(3); // advance_line (one-byte operand), advance_pc, copy
        w.push_back(u8(line & 0x7f));
        w.push_back(2);
        put_uleb2(*nd);
        w.push_back(1);
        continue;
      } else if (op == 2) { // DW_LNS_advance_pc
        size_t q = p;
        auto v = read_uleb128(d, q, unit_end);
        if (!v)
          return std::nullopt;
        auto nd = advance(*v * min_len);
        if (!nd)
          return std::nullopt;
        if (grow && *nd != *v) {
          // (Two bytes whatever the old length: "30" became "e0 00".)
          if (q - p > 2 || *nd >= 0x4000)
            return std::nullopt;
          w.push_back(2);
          put_uleb2(*nd);
          p = q;
          continue;
        }
        // (The operand keeps its length, padded: f9's 0xb0 "b0 01" became
        // 0x60 "e0 00".)
        if (q - p < 10 && (*nd >> (7 * (q - p))) != 0)
          return std::nullopt;
        w.push_back(2);
        u64 x = *nd;
        for (size_t k = p; k < q; k++, x >>= 7)
          w.push_back(u8((x & 0x7f) | (k + 1 < q ? 0x80 : 0)));
        p = q;
        continue;
      } else if (op == 3 || op == 4 || op == 5) { // advance_line, set_file, set_column
        if (!read_uleb128(d, p, unit_end))
          return std::nullopt;
      } else if (op == 1 || op == 6 || op == 7) { // copy, negate_stmt, set_basic_block
      } else {
        return std::nullopt; // const_add_pc, fixed_advance_pc, ...: not seen
      }
      w.insert(w.end(), d.begin() + long(start), d.begin() + long(p));
    }
    if (!ended || loc != old_size)
      return std::nullopt;
    i64 delta = i64(w.size()) - i64(p);
    w.insert(w.end(), d.begin() + long(p), d.end());
    if (delta) {
      u32 length = read_le<u32>(w.data() + unit);
      if (length == 0xffffffff)
        return std::nullopt; // (64-bit DWARF: not seen)
      write_le<u32>(w.data() + unit, u32(i64(length) + delta));
    }
    out.push_back({table, std::move(w), p, delta});
  }
  return out;
}

// The capsule's fence records: "d1 04 xx yy" (gpu) or "d1 02 xx yy" (sys),
// xx 1 or 2, yy 0x47/0x49/0x4d/0x4e, at even offsets, one per CTA+GPU/SYS
// MEMBAR pair; nvlink writes "51 02 xx yy". The last u16 is a check field
// 0x50 | k << 7 (k from 9 to 16) that keeps the sum of the capsule's u16
// words constant modulo 0x400 (measured on every changed capsule).
// A BRA or BSSY at old index i, now at new index `at`, made to point at
// new_target(t, bssy): the new index of its old target t (nullopt: outside
// what the rewrite allows). Other instructions are returned unchanged;
// nullopt for an offset that is not whole instructions, a target outside
// the code (or in its padding, from `end` on) or one that does not fit.
template <class NewTarget>
std::optional<Ins> retarget_branch(Ins f, size_t i, size_t at, size_t end, NewTarget new_target) {
  unsigned op = f.op() & 0x1ff;
  bool bra = op == 0x147, bssy = op == 0x145;
  if (!bra && !bssy)
    return f;
  const int64_t unit = bra ? 4 : 16; // offset units per 16-byte instruction
  int64_t off = bra ? bra_offset(f.lo) : bssy_offset(f.lo);
  if (off % unit)
    return std::nullopt;
  int64_t t = int64_t(i) + 1 + off / unit;
  if (t < 0 || t >= int64_t(end))
    return std::nullopt;
  std::optional<size_t> nt = new_target(size_t(t), bssy);
  if (!nt)
    return std::nullopt;
  int64_t no = (int64_t(*nt) - int64_t(at) - 1) * unit;
  auto lo = bra ? set_bra_offset(f.lo, no) : sass::set_bssy_offset(f.lo, no);
  if (!lo)
    return std::nullopt;
  f.lo = *lo;
  return f;
}

} // namespace

std::optional<std::vector<u8>> recode_fence_capsule(std::span<const u8> in, size_t pairs,
                                                    size_t exit_membars, size_t block_fences) {
  std::vector<u8> out(in.begin(), in.end());
  size_t n = out.size();
  if (n < 8 || n % 2)
    return std::nullopt;
  std::vector<size_t> recs;
  for (size_t p = 0; p + 4 <= n - 2; p++)
    if (out[p] == 0xd1 && (out[p + 1] == 0x04 || out[p + 1] == 0x02) &&
        (out[p + 2] == 1 || out[p + 2] == 2) &&
        (out[p + 3] == 0x47 || out[p + 3] == 0x49 || out[p + 3] == 0x4d || out[p + 3] == 0x4e))
      recs.push_back(p);
  // A lone block-scope MEMBAR's record carries the prefix "d1 02", which
  // goes with the padding: one u16 fewer, 4 units each (measured on
  // HeCBench fpdc's seven `__threadfence_block()` and CUB's onesweep and
  // unique-by-key kernels, two each, at sm_120: every capsule nvlink's with
  // the prefixes deleted and the check field moved by 4 units per prefix).
  // It reads like a SYS pair's record: only without SYS pairs beside it.
  std::vector<size_t> prefixes;
  if (block_fences) {
    std::vector<size_t> gpu;
    for (size_t p : recs)
      (out[p + 1] == 0x02 ? prefixes : gpu).push_back(p);
    if (prefixes.size() != block_fences)
      return std::nullopt;
    recs = std::move(gpu);
  }
  if (recs.size() != pairs)
    return std::nullopt;
  // -G exit MEMBARs: "51 02 01 11" becomes "d1 01 01 11" (measured on
  // gdebug_single and gdebug_2tu, sm_100 to sm_121), one unit each.
  std::vector<size_t> exits;
  if (exit_membars)
    for (size_t p = 0; p + 4 <= n - 2; p += 2)
      if (out[p] == 0x51 && out[p + 1] == 0x02 && out[p + 2] == 0x01 && out[p + 3] == 0x11)
        exits.push_back(p);
  if (exits.size() != exit_membars)
    return std::nullopt;
  unsigned units = 0;
  for (size_t p : exits) {
    out[p] = 0xd1;
    out[p + 1] = 0x01;
    units += 1;
  }
  for (size_t p : recs) {
    if (p % 2)
      return std::nullopt;
    u16 old_word = read_le<u16>(out.data() + p);
    out[p] = 0x51;
    out[p + 1] = 0x02;
    units += (old_word - 0x0251) >> 7; // 0x4d1: 5, 0x2d1: 1
  }
  for (size_t p : prefixes)
    if (p % 2)
      return std::nullopt;
  units += 4 * prefixes.size();
  u16 check = read_le<u16>(out.data() + n - 2);
  unsigned k = check >> 7;
  if ((check & 0x7f) != 0x50 || k < 9 || k > 16)
    return std::nullopt;
  k = 9 + (k - 9 + units) % 8;
  u16 next = u16(0x50 | k << 7);
  out[n - 2] = u8(next);
  out[n - 1] = u8(next >> 8);
  // The prefixes go, last first.
  for (size_t q = prefixes.size(); q-- > 0;)
    out.erase(out.begin() + long(prefixes[q]), out.begin() + long(prefixes[q]) + 2);
  return out;
}

// Only the -G exit MEMBARs go (no fence pair): the other instructions keep
// their bytes, scheduling controls included.
static bool only_exit_membars(const FenceStrip &st) {
  return st.pairs == 0 && st.exit_membars > 0 &&
         std::count(st.removed.begin(), st.removed.end(), true) == long(st.exit_membars);
}

KernelWork prepare_kernel_work(std::span<const u8> code) {
  KernelWork w;
  w.input.assign(code.begin(), code.end());
  w.fence = strip_fence_padding(code);
  if (w.fence.status == FenceStrip::Stripped && !only_exit_membars(w.fence)) {
    w.fence_scoreboards = reallocate_scoreboards(code, w.fence.code);
    if (w.fence_scoreboards)
      w.fence_verdict = sass::verify_refinalized(code, w.fence.code, w.fence.removed);
  } else if (w.fence.status == FenceStrip::Stripped) {
    w.fence_verdict = sass::verify_refinalized(code, w.fence.code, w.fence.removed);
  } else if (w.fence.status == FenceStrip::NoFences) {
    w.plain = w.input;
    w.plain_rewritten = reallocate_scoreboards(w.plain);
    if (w.plain_rewritten)
      w.plain_verdict = sass::verify_refinalized(code, w.plain);
  }
  return w;
}

FenceStrip strip_fence_padding(std::span<const u8> bytes) {
  FenceStrip out;
  std::vector<Ins> I = sass::decode(bytes);
  size_t n = I.size();
  if (n < 6 || bytes.size() % 16)
    return out;
  std::vector<bool> &removed = out.removed;
  removed.assign(n, false);
  size_t pairs = 0;
  bool any = false;
  const char *outside = nullptr; // what is outside the measured form
  // -G: ptxas ends each exit path with MEMBAR (hi 0x5000), 0x9ab, 0x5ab,
  // EXIT; nvlink drops that MEMBAR in kernels without calls (§21).
  bool calls = false;
  for (const Ins &f : I)
    if (sass::is_call(f))
      calls = true;
  std::vector<bool> exit_membar(n, false);
  for (size_t i = 0; i + 3 < n && !calls; i++)
    if (I[i].lo == 0x7992 && I[i].operands_hi() == 0x5000 && I[i + 1].op() == 0x9ab &&
        I[i + 2].op() == 0x5ab && I[i + 3].op() == sass::op::kExit) {
      any = true;
      removed[i] = true;
      exit_membar[i] = true;
      out.exit_membars++;
    }
  for (size_t i = 0; i < n; i++) {
    if (is_pad(I[i])) {
      // Four paddings before a MEMBAR, never alone (measured: 888 of 888).
      size_t k = i;
      while (k < n && is_pad(I[k]))
        k++;
      // Padding before anything else (ptxas aligns LDGSTS groups with it)
      // is no fence's: nvlink keeps it and re-finalizes the kernel as one
      // without fences (496 kernels of the HeCBench corpus at sm_100/120,
      // flashinfer's SingleDecodeWithKVCacheKernel among them).
      if (k >= n || !is_membar(I[k])) {
        i = k - 1;
        continue;
      }
      any = true;
      if (k - i != 4)
        outside = "padding of other than four before a MEMBAR";
      // `__threadfence_block()`: a lone unpredicated MEMBAR with no scope
      // bits (0x7992, operands 0) after the padding. The padding goes, the
      // MEMBAR stays (measured: HeCBench fpdc, CUB's onesweep and
      // unique-by-key kernels at sm_120).
      bool block_fence = I[k].lo == 0x7992 && I[k].operands_hi() == 0 && !(k + 1 < n && is_membar(I[k + 1]));
      if (!outside && block_fence)
        out.block_fences++;
      // A `.release.cta` fence (the CTA MEMBAR alone): its capsule record
      // changes differently; not modelled.
      else if (!outside && k < n && !(is_cta_membar(I[k]) && k + 1 < n && is_wide_membar(I[k + 1])))
        outside = "padding before other than a CTA and a GPU/SYS MEMBAR";
      for (size_t j = i; j < k; j++)
        removed[j] = true;
      i = k - 1;
      continue;
    }
    if (is_cta_membar(I[i]) && i + 1 < n && is_wide_membar(I[i + 1])) {
      any = true;
      if (I[i + 1].lo != I[i].lo) // same predicate and operands
        outside = "a MEMBAR pair of different predicates or operands";
      removed[i] = true;
      pairs++;
    }
  }
  if (!any)
    return out;
  out.status = FenceStrip::Outside;
  auto outside_form = [&](const char *why) {
    out.why = why;
    return out;
  };
  if (outside)
    return outside_form(outside);
  for (size_t i = 0; i < n; i++)
    if (removed[i] && I[i].controls() != ((7u | 7u << 3) | 0))
      return outside_form("a removed instruction with a scoreboard or wait");

  // New positions.
  std::vector<size_t> &pos = out.pos;
  pos.assign(n + 1, 0);
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    pos[i] = m;
    if (!removed[i])
      m++;
  }
  pos[n] = m;
  // Trailing NOPs after the final self-branch.
  size_t end = n;
  while (end > 0 && I[end - 1].op() == sass::op::kNop && I[end - 1].lo == I[n - 1].lo &&
         I[end - 1].hi == I[n - 1].hi)
    end--;
  if (end == 0 || end == n || I[end - 1].op() != sass::op::kBra || bra_offset(I[end - 1].lo) != -4 ||
      padded_count(end) != n || removed[end - 1])
    return outside_form("no closing BRA and padding");

  // Branches.
  std::vector<Ins> R;
  R.reserve(n);
  for (size_t i = 0; i < end; i++) {
    if (removed[i])
      continue;
    Ins f = I[i];
    unsigned op = f.op() & 0x1ff;
    if (op == 0x147 || op == 0x145) {
      // (A branch to a removed -G exit MEMBAR goes to the next instruction
      // kept: gdebug_single's k2, `BRA` +0 before it, keeps offset 0. So
      // does a BRA or BSSY to a fence's padding: HeCBench btree's insert
      // kernel at sm_120, two loops and two BSSY ranges that end at one.)
      auto g = retarget_branch(f, i, pos[i], end, [&](size_t t, bool bssy) -> std::optional<size_t> {
        if (removed[t] && !is_pad(I[t]) && (bssy || !exit_membar[t]))
          return std::nullopt; // at a removed instruction
        return pos[t];
      });
      if (!g)
        return outside_form("a branch to a removed instruction");
      f = *g;
    } else if (f.op() == 0x948) {
      // Its bits 16-23 read as a BRA offset point at a BSYNC; no removal
      // was measured inside that range.
      int64_t t = int64_t(i) + 1 + bra_offset(f.lo) / 4;
      for (int64_t j = std::min<int64_t>(int64_t(i), t); j <= std::max<int64_t>(int64_t(i), t); j++)
        if (j >= 0 && j < int64_t(n) && removed[size_t(j)])
          return outside_form("a removal inside a BSSY range");
    } else if (((f.op() & 0xff0) == 0x940 && f.op() != 0x941 && f.op() != 0x946 &&
                f.op() != sass::op::kExit && f.op() != 0x942) ||
               (f.op() & 0x1ff) == 0x158 || (f.op() & 0x1ff) == 0x149) {
      // (BREAK, 0x942, names a convergence barrier, not a target, and moves
      // like any instruction: HeCBench btree's insert kernel at sm_120.)
      // (0x958, a BRX form: its offset and table would move; not measured
      // here, and nothing may move past it unadjusted.)
      return outside_form("another control transfer (not measured)");
    }
    R.push_back(f);
  }
  out.code = padded_code(std::move(R), I[n - 1]);
  out.end = end;
  out.pairs = pairs;
  out.status = FenceStrip::Stripped;
  return out;
}

namespace {

// Old code offsets to new ones: per old instruction its new index (`pos`;
// a removed one: that of the next one kept), and the new index of what is
// inserted before it (`before`; empty: nothing is inserted).
struct OffsetMap {
  const std::vector<size_t> &pos;
  const std::vector<bool> &removed;
  const std::vector<size_t> &before;
  size_t n = 0;   // input instructions
  size_t end = 0; // input instructions before the trailing NOPs
  u64 old_size = 0, new_size = 0;
  // Relocations into the code move with their instructions (otherwise only
  // the resolved ones --preserve-relocs lists may be there).
  bool moves_code_relocations = false;
  // Relocations into the code may be there where none moves.
  bool keeps_code_relocations_in_place = false;
  // EIATTR_INDIRECT_BRANCH_TARGETS' BRX offsets and targets move with the
  // code (the debug exit sequence; otherwise they must not move).
  bool remaps_branch_targets = false;

  // An offset at a removed instruction maps to that of the next one kept
  // only where `row` allows it (measured: k_dyncluster's FDE); a row (FDE,
  // line table) at an instruction with code inserted before it maps to that
  // code.
  std::optional<u64> operator()(u64 off, bool row = false) const {
    if (off % 16 || off / 16 > n)
      return std::nullopt;
    size_t i = off / 16;
    if (i < n && !removed.empty() && removed[i] && !row)
      return std::nullopt;
    if (i >= end)
      return std::nullopt; // inside the padding
    return u64(row && !before.empty() ? before[i] : pos[i]) * 16;
  }
  // The same, with the function's end mapped to its new end.
  std::optional<u64> or_end(u64 off) const {
    return off == old_size ? std::optional<u64>(new_size) : (*this)(off, true);
  }
};

// Why a kernel keeps ptxas's code: DLINK_LOG=debug names the step.
FenceRewrite kept(const OutputSection &text, std::string_view step) {
  log::debug("refinalize_fences: {}: kept: {}", text.name, step);
  return FenceRewrite::Kept;
}

// The function alone in its section, at 0, of the section's size.
bool function_alone(const Context &ctx, const OutputSection &text, const OutputSymbol *fn) {
  if (!fn || fn->section != &text || fn->value != 0 || fn->size != text.data.size())
    return false;
  for (const auto *list : {&ctx.out.locals, &ctx.out.globals})
    for (const OutputSymbol *s : *list)
      if (s != fn && s->section == &text && !s->is_section_symbol)
        return false;
  return true;
}

// Relocations: none into the code but the resolved ones --preserve-relocs
// lists (their offsets move with their instructions; nvlink's
// gdebug_dynamic_location with --preserve-relocs, sm_100) or, where code is
// inserted, any (the -g debug exit sequence), none against it
// but the FDE's, the line tables' and (-G) those of .debug_info and
// .debug_loc, whose addends are code offsets (high_pc fn + size, location
// ranges; §21), and those naming the function's start (addend 0: a
// function pointer). Their new addends and offsets.
struct AddendRewrites {
  std::vector<std::pair<OutputReloc *, i64>> addends;
  std::vector<std::pair<OutputReloc *, u64>> offsets;
};
std::optional<AddendRewrites> rewrite_dwarf_addends(Context &ctx, const OutputSection &text,
                                                    const OutputSymbol *fn, const OffsetMap &map) {
  AddendRewrites rewrites;
  for (OutputSection *rs : ctx.out.sections) {
    if (rs->removed || !rs->target)
      continue;
    if (rs->target == &text && (rs->resolved_rela || map.moves_code_relocations)) {
      for (OutputReloc &r : rs->relocs) {
        std::optional<u64> at = map(r.offset / 16 * 16);
        if (!at)
          return std::nullopt;
        rewrites.offsets.emplace_back(&r, *at + r.offset % 16);
        // Against the function itself: a code offset (a CALL's return
        // address), which goes to the code inserted before it.
        if (r.sym == fn && r.addend != 0) {
          std::optional<u64> a = r.addend > 0 ? map(u64(r.addend), true) : std::nullopt;
          if (!a)
            return std::nullopt;
          rewrites.addends.emplace_back(&r, i64(*a));
        }
      }
      continue;
    }
    if (rs->target == &text && map.keeps_code_relocations_in_place &&
        std::all_of(rs->relocs.begin(), rs->relocs.end(), [&](const OutputReloc &r) {
          return map(r.offset / 16 * 16) == r.offset / 16 * 16;
        }))
      continue;
    if (rs->target == &text && !rs->relocs.empty()) {
      log::debug("refinalize: {}: relocations in {}", text.name, rs->name);
      return std::nullopt;
    }
    if (rs->target->name == ".debug_frame" || rs->target->name == ".debug_line" ||
        rs->target->name == ".nv_debug_line_sass")
      continue;
    bool dwarf = rs->target->name == ".debug_info" || rs->target->name == ".debug_loc";
    for (OutputReloc &r : rs->relocs) {
      if (r.sym == text.symbol) {
        log::debug("refinalize: {}: a relocation in {} against the section", text.name, rs->name);
        return std::nullopt;
      }
      if (r.sym != fn)
        continue;
      if (!dwarf && r.addend == 0)
        continue; // the function's start (a function pointer), which stays
      if (!dwarf || r.addend < 0) {
        log::debug("refinalize: {}: a relocation in {} against the function", text.name, rs->name);
        return std::nullopt;
      }
      std::optional<u64> a = map.or_end(u64(r.addend));
      if (!a)
        return std::nullopt;
      rewrites.addends.emplace_back(&r, i64(*a));
    }
  }
  return rewrites;
}

// Other debug data would hold code offsets too (line tables and -G's
// register map are rewritten by the steps below; the PTX text, .debug_str
// and the other -G sections hold none: measured unchanged). False for a
// section outside that list; `*reg_map`: -G's register map, if any.
bool only_known_debug_sections(Context &ctx, OutputSection **reg_map) {
  *reg_map = nullptr;
  for (OutputSection *s : ctx.out.sections) {
    if (s->removed || s->kind != SectionKind::Debug)
      continue;
    if (s->name == ".nv_debug_info_reg_sass") {
      *reg_map = s;
      continue;
    }
    if (s->name != ".debug_frame" && s->name != ".debug_line" && s->name != ".nv_debug_line_sass" &&
        s->name != ".debug_str" && !s->name.starts_with(".nv_debug_ptx_txt.") &&
        s->name != ".debug_info" && s->name != ".debug_abbrev" && s->name != ".debug_loc" &&
        s->name != ".debug_pubnames" && s->name != ".debug_pubtypes" &&
        s->name != ".nv_debug_info_reg_type")
      return false;
  }
  return true;
}

// -G register map (.nv_debug_info_reg_sass; layout in merge.cpp
// filter_register_map): the start and end offsets of `fn`'s entries.
std::optional<std::vector<u8>> rewrite_register_map(const OutputSection &reg_map, const OutputSymbol *fn,
                                                    const OffsetMap &map) {
  if (reg_map.data.size() != reg_map.size)
    return std::nullopt;
  std::vector<u8> b = reg_map.data;
  auto cstring = [&](size_t &p) -> std::optional<std::string_view> {
    auto nul = std::find(b.begin() + long(p), b.end(), u8(0));
    if (nul == b.end())
      return std::nullopt;
    std::string_view name(reinterpret_cast<const char *>(b.data() + p), size_t(nul - b.begin()) - p);
    p = size_t(nul - b.begin()) + 1;
    return name;
  };
  size_t p = 0;
  while (p < b.size()) {
    auto name = cstring(p);
    if (!name || p + 4 > b.size())
      return std::nullopt;
    u32 count = read_le<u32>(b.data() + p);
    p += 4;
    bool mine = *name == fn->name;
    for (u32 e = 0; e < count; e++) {
      if (p + 4 > b.size())
        return std::nullopt;
      p += 4;
      if (!cstring(p) || p + 12 > b.size())
        return std::nullopt;
      p += 4;
      for (int k = 0; k < 2 && mine; k++) {
        std::optional<u64> no = map.or_end(read_le<u32>(b.data() + p + 4 * size_t(k)));
        if (!no)
          return std::nullopt;
        write_le<u32>(b.data() + p + 4 * size_t(k), u32(*no));
      }
      p += 8;
    }
  }
  return b;
}

// .nv.info.<f>: the offset lists re-mapped; any record not measured in a
// re-finalized kernel keeps the kernel as it is.
std::optional<std::vector<InfoRecord>> rewrite_offset_records(const OutputSection &info,
                                                              const OffsetMap &map) {
  std::vector<InfoRecord> records = info.records;
  for (InfoRecord &r : records) {
    bool list = contains(kOffsetAttrs, r.attr), pairs = contains(kOffsetPairAttrs, r.attr);
    bool first_pairs = contains(kOffsetFirstPairAttrs, r.attr);
    if (list || pairs || first_pairs) {
      // Every word an offset, or the second of each (kind, offset) pair,
      // or the first of each (offset, mask) pair.
      const size_t stride = pairs || first_pairs ? 8 : 4;
      if (r.payload.size() % stride)
        return std::nullopt;
      for (size_t k = pairs ? 4 : 0; k < r.payload.size(); k += stride) {
        auto o = map(read_le<u32>(r.payload.data() + k));
        if (!o)
          return std::nullopt;
        write_le<u32>(r.payload.data() + k, u32(*o));
      }
    } else if (contains(kOffsetFirstOfFourAttrs, r.attr)) {
      if (r.payload.size() % 16)
        return std::nullopt;
      for (size_t k = 0; k < r.payload.size(); k += 16) {
        auto o = map(read_le<u32>(r.payload.data() + k));
        if (!o)
          return std::nullopt;
        write_le<u32>(r.payload.data() + k, u32(*o));
      }
    } else if (r.attr == EIATTR_INDIRECT_BRANCH_TARGETS) {
      // Groups (BRX offset, 0, n, n target offsets): kept as they are where
      // none of them moves (measured: empty_rela_constant2 with -g).
      const u8 *p = r.payload.data();
      size_t words = r.payload.size() / 4, k = 0;
      if (r.payload.size() % 4)
        return std::nullopt;
      while (k < words) {
        if (k + 3 > words)
          return std::nullopt;
        size_t n = read_le<u32>(p + 4 * (k + 2));
        if (n > words - k - 3)
          return std::nullopt;
        // (-g: a group moves with the code, targets at an EXIT to its
        // sequence: HeCBench bn at sm_100, BRX 0x5620 -> 0x5650, targets
        // 0x5670, 0x56a0, 0x5630 -> 0x56a0, 0x56d0, 0x5660.)
        auto moves = [&](size_t w, bool row) {
          u32 o = read_le<u32>(p + 4 * w);
          std::optional<u64> to = map(o, row);
          if (!to || (!map.remaps_branch_targets && *to != o))
            return false;
          write_le<u32>(r.payload.data() + 4 * w, u32(*to));
          return true;
        };
        if (!moves(k, false))
          return std::nullopt;
        for (size_t w = k + 3; w < k + 3 + n; w++)
          if (!moves(w, true))
            return std::nullopt;
        k += 3 + n;
      }
    } else if (!contains(kPlainAttrs, r.attr)) {
      log::debug("refinalize: {}: record {:#x} not measured", info.name, r.attr);
      return std::nullopt;
    }
  }
  for (const InfoRecord &r : info.tail_records)
    if (contains(kOffsetAttrs, r.attr) || contains(kOffsetPairAttrs, r.attr) ||
        contains(kOffsetFirstPairAttrs, r.attr) || contains(kOffsetFirstOfFourAttrs, r.attr) ||
        !contains(kPlainAttrs, r.attr))
      return std::nullopt;
  return records;
}

// .debug_frame: the FDE's range and its advance_loc steps. `fde` stays
// empty without a .debug_frame.
struct FrameRewrite {
  std::optional<Fde> fde;
  std::vector<u8> frame; // the section's new bytes
};
std::optional<FrameRewrite> rewrite_fde(Context &ctx, const OutputSymbol *fn, const OffsetMap &map) {
  FrameRewrite out;
  if (!find_section(ctx, ".debug_frame"))
    return out;
  out.fde = find_fde(ctx, fn);
  if (!out.fde)
    return std::nullopt;
  const Fde &fde = *out.fde;
  std::vector<u8> &frame = out.frame;
  frame = fde.sec->data;
  if (read_le<u64>(frame.data() + fde.start + 28) != map.old_size)
    return std::nullopt;
  write_le<u64>(frame.data() + fde.start + 28, map.new_size);
  u64 loc = 0, new_loc = 0;
  size_t p = fde.start + 36;
  while (p < fde.end) {
    u8 op = frame[p];
    size_t at = p++;
    u64 delta = 0;
    int width = -1; // advance_loc: operand bytes (0: in the opcode)
    if ((op & 0xc0) == 0x40) {
      delta = op & 0x3f;
      width = 0;
    } else if (op == 0x02 || op == 0x03 || op == 0x04) {
      width = op == 0x02 ? 1 : op == 0x03 ? 2 : 4;
      if (p + size_t(width) > fde.end)
        return std::nullopt;
      for (int b = width - 1; b >= 0; b--)
        delta = delta << 8 | frame[p + size_t(b)];
      p += size_t(width);
    } else if (op == 0x00 || op == 0x0a || op == 0x0b || (op & 0xc0) == 0xc0) {
      continue;
    } else if ((op & 0xc0) == 0x80 || op == 0x06 || op == 0x07 || op == 0x08 || op == 0x0d ||
               op == 0x0e) {
      if (!read_uleb128(frame, p, fde.end))
        return std::nullopt;
      continue;
    } else if (op == 0x05 || op == 0x09 || op == 0x0c) {
      if (!read_uleb128(frame, p, fde.end) || !read_uleb128(frame, p, fde.end))
        return std::nullopt;
      continue;
    } else {
      return std::nullopt;
    }
    loc += delta * fde.code_align;
    auto nl = map(loc, true);
    if (!nl || (*nl - new_loc) % fde.code_align)
      return std::nullopt;
    u64 nd = (*nl - new_loc) / fde.code_align;
    new_loc = *nl;
    if (width == 0) {
      frame[at] = u8(0x40 | nd);
    } else {
      for (int b = 0; b < width; b++)
        frame[at + 1 + size_t(b)] = u8(nd >> (8 * b));
    }
  }
  return out;
}

// Every place outside the code that holds an offset into it, rewritten
// aside for `map`: relocation addends and offsets, -G's register map, the
// offset lists of .nv.info.<f>, the FDE, the line tables.
struct OffsetRewrites {
  OutputSymbol *fn = nullptr;
  AddendRewrites addends;
  OutputSection *reg_map = nullptr;
  std::vector<u8> reg_bytes;
  OutputSection *info = nullptr;
  std::vector<InfoRecord> records;
  FrameRewrite frame;
  std::vector<LineRewrite> lines;
};

// nullopt (with the step in *why) where one of them is outside what was
// measured.
std::optional<OffsetRewrites> rewrite_offsets(Context &ctx, const OutputSection &text, const OffsetMap &map,
                                              const char **why) {
  auto fail = [&](const char *step) -> std::optional<OffsetRewrites> {
    *why = step;
    return std::nullopt;
  };
  OffsetRewrites out;
  OutputSymbol *fn = out.fn = text.func;
  if (!function_alone(ctx, text, fn))
    return fail("symbols");
  auto addends = rewrite_dwarf_addends(ctx, text, fn, map);
  if (!addends)
    return fail("relocations");
  out.addends = std::move(*addends);
  if (!only_known_debug_sections(ctx, &out.reg_map))
    return fail("debug sections");
  if (out.reg_map) {
    auto b = rewrite_register_map(*out.reg_map, fn, map);
    if (!b)
      return fail("register map");
    out.reg_bytes = std::move(*b);
  }
  out.info = find_section(ctx, ".nv.info." + std::string(text.name.substr(6)));
  if (!out.info)
    return fail("no .nv.info");
  auto records = rewrite_offset_records(*out.info, map);
  if (!records)
    return fail(".nv.info records");
  out.records = std::move(*records);
  auto frame = rewrite_fde(ctx, fn, map);
  if (!frame)
    return fail(".debug_frame");
  out.frame = std::move(*frame);
  auto lines = rewrite_line_tables(ctx, fn, [&](u64 off) { return map(off, true); }, map.old_size,
                                   map.new_size, !map.before.empty());
  if (!lines)
    return fail("line tables");
  out.lines = std::move(*lines);
  return out;
}

// The kernel's new code and capsule, with everything that `rw` rewrote.
void commit(Context &ctx, OutputSection &text, std::vector<u8> code, std::vector<u8> capsule,
            OffsetRewrites &rw) {
  u64 size = code.size();
  text.data = std::move(code);
  text.size = size;
  rw.fn->size = size;
  rw.info->records = std::move(rw.records);
  if (rw.frame.fde)
    rw.frame.fde->sec->data = std::move(rw.frame.frame);
  for (LineRewrite &lr : rw.lines) {
    // A table that grew: what follows the sequence moves, the relocations
    // into it (later sequences' addresses) and the references to its later
    // units (DW_AT_stmt_list: addends against its section symbol).
    if (lr.delta)
      for (OutputSection *rs : ctx.out.sections) {
        if (rs->kind != SectionKind::Reloc)
          continue;
        for (OutputReloc &r : rs->relocs) {
          if (rs->target == lr.table && r.offset >= lr.old_end)
            r.offset = u64(i64(r.offset) + lr.delta);
          if (r.sym && r.sym == lr.table->symbol && r.addend >= i64(lr.old_end))
            r.addend += lr.delta;
        }
      }
    lr.table->data = std::move(lr.bytes);
    lr.table->size = lr.table->data.size();
  }
  for (auto &[r, a] : rw.addends.addends)
    r->addend = a;
  for (auto &[r, at] : rw.addends.offsets)
    r->offset = at;
  if (rw.reg_map)
    rw.reg_map->data = std::move(rw.reg_bytes);
  mercury_state(ctx).capsule_replacement[&text] = std::move(capsule);
}

// The capsule of the function defined in `text`: as its input has it, or
// as an earlier rewrite left it (-g -suppress-debug-info: the debug exit
// sequence inserted, then the kernel re-finalized).
std::optional<std::span<const u8>> current_capsule(Context &ctx, const OutputSection &text) {
  auto &replaced = mercury_state(ctx).capsule_replacement;
  if (auto it = replaced.find(&text); it != replaced.end())
    return std::span<const u8>(it->second);
  const InputObject *obj = text.func ? text.func->defined_in : nullptr;
  const ElfSection *cap = obj ? obj->elf.section_named(".nv.capmerc" + std::string(text.name)) : nullptr;
  if (!cap)
    return std::nullopt;
  return std::span<const u8>(cap->data.data(), cap->data.size());
}

} // namespace

namespace {

bool has_surface_store(std::span<const u8> code) {
  constexpr unsigned kSust = 0xf9d;
  for (const sass::Instruction &i : sass::decode(code))
    if ((i.op() & 0xfff) == kSust)
      return true;
  return false;
}

} // namespace

FenceRewrite refinalize_fence_kernel(Context &ctx, OutputSection &text, bool exit_membars_only_allowed,
                                     KernelWork *work) {
  if (text.data.size() != text.size)
    return FenceRewrite::NoFences;
  if (work && !work->holds(text.data))
    work = nullptr;
  FenceStrip st = work ? std::move(work->fence) : strip_fence_padding(text.data);
  if (st.status == FenceStrip::NoFences)
    return FenceRewrite::NoFences;
  if (st.status != FenceStrip::Stripped)
    return kept(text, fmt::format("padding outside the measured form: {}", st.why));
  std::vector<u8> code = std::move(st.code);
  const std::vector<size_t> no_insertions;
  OffsetMap map{st.pos, st.removed, no_insertions, text.data.size() / 16, st.end, text.data.size(),
                code.size()};
  // Its exit MEMBARs (-G ones, or the debug exit sequence's) go beside
  // relocations into the code that do not move (mixed_debug_nog: global
  // addresses before them; differential-ptx --mode gmix: -G kernels).
  // Relocations that would move: not measured, the kernel is kept.
  map.keeps_code_relocations_in_place = true;

  const char *why = "";
  auto rw = rewrite_offsets(ctx, text, map, &why);
  if (!rw)
    return kept(text, why);
  auto cap = current_capsule(ctx, text);
  if (!cap)
    return kept(text, "no capsule");
  auto capsule = recode_fence_capsule(*cap, st.pairs, st.exit_membars, st.block_fences);
  if (!capsule)
    return kept(text, "capsule fence records");

  // Scoreboards, checked on ptxas's code. (-G exit MEMBARs alone: nvlink
  // keeps every other instruction's bytes, scheduling controls included;
  // measured on gdebug_single, gdebug_2tu.)
  bool exit_membars_only = only_exit_membars(st);
  if (!exit_membars_only && exit_membars_only_allowed)
    return kept(text, "stack frame: only -G exit MEMBARs may go");
  // A kernel with a surface store keeps its exit MEMBARs, -G ones and the
  // debug exit sequence's (differential-ptx --mode gmix at sm_100 and
  // sm_120: seeds 22, 25 and 47, a -G kernel and kernels given the sequence).
  if (exit_membars_only && has_surface_store(text.data))
    return kept(text, "a surface store");
  // (A precomputed `code` is re-allocated already.)
  if (!exit_membars_only && !(work ? work->fence_scoreboards : reallocate_scoreboards(text.data, code)))
    return kept(text, "scoreboards");
  // Every rewrite is checked against ptxas's code (sass_verify.h).
  if (auto v = work && work->fence_verdict ? std::move(*work->fence_verdict)
                                           : sass::verify_refinalized(text.data, code, st.removed);
      !v.ok)
    return kept(text, "verifier: " + v.reason);

  commit(ctx, text, std::move(code), std::move(*capsule), *rw);
  log::debug("refinalize_fences: {}: rewritten ({} fence pairs, {} exit MEMBARs)", text.name, st.pairs,
             st.exit_membars);
  return FenceRewrite::Rewritten;
}

// -g: the debug exit sequence (docs/notes/debug-link.md, "sm_100+ kernels
// compiled without -G"). Before each EXIT, with the EXIT's predicate:
// MEMBAR (hi 0x5000), 0x9ab, 0x5ab, with these scheduling controls (as
// ptxas -G writes them).
namespace {

constexpr unsigned kDebugExitOps[3] = {0x992, 0x9ab, 0x5ab};
constexpr u64 kDebugExitHi[3] = {0x000fc00000005000, 0x000fc00000000000, 0x000fec0000000000};
constexpr unsigned kSust = 0xf9d;

// The capsule's record of a debug exit: 18 bytes in the EXIT's item (which
// has none in a capsule without it), byte 6 the predicate: register << 3 |
// negation, PT as register 31 (measured: PT 0xf8, P0 0x00, !P0 0x01, P1
// 0x08). nullopt for !PT.
std::optional<std::array<u8, 18>> debug_exit_record(unsigned pred) {
  std::array<u8, 18> r{0x51, 0x02, 0x01, 0x11, 0x00, 0x0a, 0, 0, 0, 0, 0, 0, 0, 0xf8, 0, 0, 0, 0};
  unsigned reg = pred & 7, negated = pred >> 3 & 1;
  if (reg == 7 && negated)
    return std::nullopt;
  r[6] = u8((reg == 7 ? 31 : reg) << 3 | negated);
  return r;
}

} // namespace

DebugExitCode insert_debug_exit_code(std::span<const u8> bytes,
                                     const std::vector<size_t> *jump_targets) {
  DebugExitCode out;
  std::vector<Ins> I = sass::decode(bytes);
  const size_t n = I.size();
  if (n < 2 || bytes.size() % 16)
    return out;
  size_t end = n;
  while (end > 0 && I[end - 1].op() == sass::op::kNop && I[end - 1].lo == I[n - 1].lo &&
         I[end - 1].hi == I[n - 1].hi)
    end--;
  bool any = false;
  for (size_t i = 0; i < end; i++)
    if (I[i].op() == sass::op::kExit)
      any = true;
  if (!any)
    return out;
  out.status = DebugExitCode::Outside;
  auto outside = [&](const char *why) {
    out.why = why;
    return out;
  };
  if (end == 0 || end == n || I[end - 1].op() != sass::op::kBra || bra_offset(I[end - 1].lo) != -4 ||
      padded_count(end) != n)
    return outside("no closing BRA and padding");
  // A predicated EXIT right after a producer with stall 6 or more whose
  // scoreboard it does not wait on: nvlink sometimes waits on it there (and
  // drops the waits after it that this makes redundant), by a rule not
  // found: 17 of 54 such EXITs in 56 random -lineinfo modules at sm_100
  // (stores' read scoreboards; stalls 6 to 11 on both sides), none of 171
  // below stall 6. The EXIT keeps ptxas's waits: the sequence reads and
  // writes no register, so the code is as safe as ptxas's own (as nvlink
  // leaves the other 37); the kernel is counted as not reproduced.
  for (size_t i = 1; i < end; i++) {
    const Ins &x = I[i], &p = I[i - 1];
    if (x.op() != sass::op::kExit || x.pred() == sass::kNone || p.stall() < 6)
      continue;
    for (unsigned sb : {p.wr(), p.rd()})
      if (sb != sass::kNone && !(x.wait() >> sb & 1))
        out.unmodelled_exit_wait = true;
  }
  // New positions: each EXIT moves by the three instructions before it.
  out.pos.assign(n + 1, 0);
  out.before.assign(n + 1, 0);
  size_t m = 0;
  for (size_t i = 0; i <= n; i++) {
    out.before[i] = m;
    if (i < end && I[i].op() == sass::op::kExit) {
      if (i >= 3 && I[i - 1].op() == 0x5ab && I[i - 2].op() == 0x9ab)
        return outside("the sequence is there already (-G code)");
      m += 3;
      out.exits.push_back(i);
    }
    out.pos[i] = m;
    m++;
  }
  std::vector<Ins> R;
  R.reserve(n + 3 * out.exits.size());
  for (size_t i = 0; i < end; i++) {
    Ins f = I[i];
    unsigned op = f.op() & 0x1ff;
    if (op == 0x147 || op == 0x145) { // a branch to an EXIT goes to its sequence
      auto g = retarget_branch(f, i, out.pos[i], end,
                               [&](size_t t, bool) -> std::optional<size_t> { return out.before[t]; });
      if (!g)
        return outside("a branch that cannot be retargeted");
      f = *g;
    } else if (f.op() == 0x948) {
      // Its bits 16-23 read as a BRA offset point at a BSYNC; no EXIT was
      // measured inside that range.
      int64_t t = int64_t(i) + 1 + bra_offset(f.lo) / 4;
      for (size_t e : out.exits)
        if (int64_t(e) >= std::min<int64_t>(int64_t(i), t) && int64_t(e) <= std::max<int64_t>(int64_t(i), t))
          return outside("an EXIT inside a BSSY range");
    } else if ((f.op() & 0x1ff) == 0x149 || (f.op() & 0x1ff) == 0x158) {
      // BRX: where nothing moves, its table stays as it is
      // (empty_rela_constant2: every target before the EXIT).
      if (!jump_targets)
        return outside("a BRX whose table is not known");
      // (A target after an EXIT moves, and its table word with it:
      // insert_debug_exits; HeCBench bn, lsqt, resnet-kernels, depixel,
      // jenkins-hash with -g.)
      for (size_t t : *jump_targets)
        if (t >= end)
          return outside("a BRX target in the padding");
      // Its offset field (a BRA's) counts from it: a BRX (0x949, or the
      // 0x958 form) moved by the sequences before it is 4 units less per
      // instruction (HeCBench bn and lsqt at sm_100, 0x949 moved by 0x30:
      // 0x74 -> 0x68; lsqt at sm_120, 0x958 moved by 0x30: 0x40 -> 0x34,
      // by 0x90: 0xa4 -> 0x80).
      if (out.pos[i] != i) {
        auto g = set_bra_offset(f.lo, bra_offset(f.lo) - int64_t(out.pos[i] - i) * 4);
        if (!g)
          return outside("a BRX offset out of range");
        f.lo = *g;
      }
    } else if ((f.op() & 0xff0) == 0x940 && f.op() != 0x941 && f.op() != 0x942 &&
               f.op() != 0x946 && !sass::is_call(f) && f.op() != sass::op::kExit) {
      // (0x942, BREAK, names a barrier register, not a target: thrust_device's
      // sort_rows, unchanged by nvlink.)
      return outside("another control transfer (not measured)");
    }
    if (f.op() == sass::op::kExit) {
      // A surface store right before the EXIT loses its second stall cycle
      // (measured: 0xf9d, stall 2 -> 1; no other opcode before an EXIT
      // changed in 2,800 exits of the golden corpus).
      if (!R.empty() && R.back().op() == kSust && R.back().stall() == 2)
        R.back() = R.back().with_stall(1);
      for (int k = 0; k < 3; k++)
        R.push_back(Ins{(f.lo & 0xf000) | kDebugExitOps[k], kDebugExitHi[k]});
      // An EXIT whose stall covers more than its usual 5 cycles (a latency
      // to what follows it) counts the sequence's 6: libcudadevrt's
      // memset_3d_device<unsigned long, 0, 0, *> at sm_120, an @P0 EXIT
      // after UIMADs, stall 8 -> 5.
      if (f.stall() > 5)
        f = f.with_stall(std::max(5u, f.stall() - 6));
    }
    R.push_back(f);
  }
  out.code = padded_code(std::move(R), I[n - 1]);
  out.end = end;
  out.status = DebugExitCode::Inserted;
  return out;
}

std::optional<std::vector<u8>> insert_debug_exit_records(std::span<const u8> capsule,
                                                         std::span<const u8> code) {
  std::vector<u8> c(capsule.begin(), capsule.end());
  std::vector<CapsuleItem> items;
  if (!parse_capsule(c, items))
    return std::nullopt;
  std::vector<Ins> I = sass::decode(code);
  // The items cover the instructions before the trailing NOPs.
  size_t end = I.size();
  while (end > 0 && I[end - 1].op() == sass::op::kNop)
    end--;
  std::vector<size_t> item_of = capsule_item_of_instruction(items);
  if (item_of.size() != end)
    return std::nullopt;
  size_t body = 12 + 4 * ((items.size() + 31) / 32);
  // The final BRA's item: a check token 0x50 | k << 7, k from 9 to 16, the
  // capsule's last bytes.
  if (items.empty() || I[end - 1].op() != sass::op::kBra || items.back().size != 2 ||
      items.back().insns != 1 || items.back().pos + 2 != c.size())
    return std::nullopt;
  const size_t stop = items.back().pos;
  u16 check = read_le<u16>(c.data() + stop);
  unsigned k = check >> 7;
  if ((check & 0x7f) != 0x50 || k < 9 || k > 16)
    return std::nullopt;
  std::vector<u8> out(c.begin(), c.begin() + long(body));
  size_t exits = 0;
  size_t from = body; // input bytes copied up to here
  for (size_t x = 0; x < end; x++) {
    if (I[x].op() != sass::op::kExit)
      continue;
    size_t i = item_of[x];
    if (items[i].pos || items[i].insns != 1)
      return std::nullopt; // an EXIT with a record of its own: not measured
    auto rec = debug_exit_record(I[x].pred());
    if (!rec)
      return std::nullopt;
    // The EXIT's bytes go after the last item before it that has some.
    size_t at = body;
    for (size_t j = 0; j < i; j++)
      if (items[j].pos)
        at = items[j].pos + items[j].size;
    out.insert(out.end(), c.begin() + long(from), c.begin() + long(at));
    out.insert(out.end(), rec->begin(), rec->end());
    from = at;
    u8 *mask = out.data() + 12 + 4 * (i / 32);
    write_le<u32>(mask, read_le<u32>(mask) & ~(u32(1) << (i % 32)));
    exits++;
  }
  out.insert(out.end(), c.begin() + long(from), c.begin() + long(stop));
  // Each debug exit advances the check token by five (measured on 1, 2 and
  // 4 exits).
  k = 9 + (k - 9 + 5 * unsigned(exits)) % 8;
  u16 next = u16(0x50 | k << 7);
  out.push_back(u8(next));
  out.push_back(u8(next >> 8));
  return out;
}

namespace {

// The instruction indices held by kernel f's BRX jump tables: the words of
// its SASS optimizer bank (.nv.constant2.<f>, byte offsets into the code)
// at the offsets where the Mercury twin bank has a R_MERCURY_PROG_REL32
// against f. nullopt where they cannot be read.
// The kernel's jump-table words: (offset in its .nv.constant2 bank, code
// offset), as its input has them.
std::optional<std::vector<std::pair<u64, u32>>> jump_table_words(const OutputSection &text) {
  const InputObject *obj = text.func ? text.func->defined_in : nullptr;
  if (!obj)
    return std::nullopt;
  const ElfFile &elf = obj->elf;
  std::string fname(text.func->name);
  std::vector<std::pair<u64, u32>> out;
  auto rela = elf.find_section(".nv.merc.rela.nv.constant.optimizer." + fname);
  if (!rela)
    return out; // no table
  auto bank = elf.find_section(".nv.constant2." + fname);
  const ElfSection &r = elf.sections[*rela];
  if (!bank || r.link >= elf.sections.size())
    return std::nullopt;
  std::vector<ElfSymbol> syms = read_symbols(elf, elf.sections[r.link]);
  std::span<const u8> words = elf.sections[*bank].data;
  for (const ElfReloc &x : read_relocs(r)) {
    if (x.type != kMercuryRelocBase + 0x08 || x.sym >= syms.size() || syms[x.sym].name != fname)
      continue; // not a code address of f
    if (x.offset + 4 > words.size())
      return std::nullopt;
    u32 off = read_le<u32>(words.data() + x.offset);
    if (off % sass::kInstructionSize)
      return std::nullopt;
    out.emplace_back(x.offset, off);
  }
  return out;
}

std::optional<std::vector<size_t>> jump_table_targets(const OutputSection &text) {
  auto words = jump_table_words(text);
  if (!words)
    return std::nullopt;
  std::vector<size_t> targets;
  for (const auto &[at, off] : *words)
    targets.push_back(off / sass::kInstructionSize);
  return targets;
}

// A jump table's words in the kernel's output bank, moved with their
// targets (the debug exit sequence: a target at an EXIT goes to its
// sequence). nullopt where the bank does not hold the input's words there.
struct TableRewrite {
  OutputSection *bank = nullptr;
  std::vector<std::pair<u64, u32>> words; // (offset, new code offset)
};
std::optional<TableRewrite> rewrite_jump_table(Context &ctx, const OutputSection &text, const OffsetMap &map) {
  TableRewrite out;
  auto words = jump_table_words(text);
  if (!words)
    return std::nullopt;
  if (words->empty())
    return out;
  std::string fname(text.func->name);
  for (OutputSection *sec : ctx.out.sections)
    if (!sec->removed && !mercury_state(ctx).is_copy(sec) &&
        (sec->name == ".nv.constant2." + fname || sec->name == ".nv.constant.optimizer." + fname ||
         sec->renamed_from == ".nv.constant.optimizer." + fname))
      out.bank = sec;
  if (!out.bank)
    return std::nullopt;
  for (const auto &[at, off] : *words) {
    std::optional<u64> moved = map(off, true);
    if (!moved || at + 4 > out.bank->data.size() || read_le<u32>(out.bank->data.data() + at) != off)
      return std::nullopt;
    out.words.emplace_back(at, u32(*moved));
  }
  return out;
}

} // namespace

DebugExitRewrite insert_debug_exits(Context &ctx, OutputSection &text, std::string *why) {
  if (text.data.size() != text.size) {
    *why = "code not in memory";
    return DebugExitRewrite::Refused;
  }
  std::vector<u8> original = text.data;
  // A stack-pointer load still pending at an EXIT of the opening block is
  // waited on there (scoreboards allocated again from that wait).
  std::vector<u8> waited = original;
  bool rewaited = wait_stack_pointer_at_first_exit(waited).value_or(false);
  std::optional<std::vector<size_t>> targets = jump_table_targets(text);
  DebugExitCode dx = insert_debug_exit_code(rewaited ? waited : original,
                                            targets ? &*targets : nullptr);
  if (dx.status == DebugExitCode::NoExits)
    return DebugExitRewrite::NoExits;
  if (dx.status != DebugExitCode::Inserted) {
    *why = dx.why;
    return DebugExitRewrite::Refused;
  }
  const std::vector<bool> none_removed;
  OffsetMap map{dx.pos, none_removed, dx.before, original.size() / 16, dx.end, original.size(), dx.code.size()};
  map.moves_code_relocations = true;
  map.remaps_branch_targets = true;
  const char *step = "";
  auto rw = rewrite_offsets(ctx, text, map, &step);
  if (!rw) {
    *why = step;
    return DebugExitRewrite::Refused;
  }
  auto table = rewrite_jump_table(ctx, text, map);
  if (!table) {
    *why = "a jump table not found in the kernel's bank";
    return DebugExitRewrite::Refused;
  }
  auto cap = current_capsule(ctx, text);
  if (!cap) {
    *why = "no capsule";
    return DebugExitRewrite::Refused;
  }
  auto capsule = insert_debug_exit_records(*cap, original);
  if (!capsule) {
    *why = "capsule outside the measured form";
    return DebugExitRewrite::Refused;
  }
  commit(ctx, text, std::move(dx.code), std::move(*capsule), *rw);
  for (const auto &[at, off] : table->words)
    write_le<u32>(table->bank->data.data() + at, off);
  log::debug("debug exits: {}: {} inserted{}{}", text.name, dx.exits.size(),
             rewaited ? ", stack-pointer load waited on at the first EXIT" : "",
             dx.unmodelled_exit_wait ? "; ptxas's waits kept at a predicated EXIT after a stall of 6 or more"
                                     : "");
  return DebugExitRewrite::Rewritten;
}

} // namespace dlink
