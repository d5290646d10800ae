// The merge stage's sm_100+ debug edits (link/input_merger.h): nvlink
// rewrites .debug_frame, the line tables and the register map of each input
// without the records of functions that do not reach the output, and the
// frame entries of weak functions whose kept copy changed hands. The merge
// calls in at one point: InputMerger::mercury_debug_edit.
#include "link/input_merger.h"
#include "merge.h"

#include "dlink/demangle.h"
#include "dlink/reloc_types.h"

#include "dead_code.h"
#include "elf/dwarf_frame.h"
#include "elf/dwarf_line.h"
#include "mercury/frame_merge.h"
#include "output_model.h"
#include "relocatable.h"
#include "validate.h"

#include <algorithm>
#include <set>


namespace dlink {

namespace {

// The FDEs of function `fn` in frame section `sec` of `obj`, in entry
// order: those with a relocation at +20 against it (each relocation
// section read with its own symbol table, .symtab or .nv.merc.symtab).
std::vector<size_t> function_frame_entries(const InputObject &obj, u32 sec, std::string_view fn) {
  const ElfSection &in = obj.elf.sections.at(sec);
  std::vector<FrameEntry> entries = parse_frame_entries({in.data.begin(), in.data.end()});
  std::vector<size_t> found;
  for (const ElfSection &rs : obj.elf.sections) {
    if ((rs.type != SHT_RELA && rs.type != SHT_REL && rs.type != SHT_CUDA_MERC_RELA) || rs.info != sec)
      continue;
    std::vector<ElfSymbol> merc_symbols;
    const std::vector<ElfSymbol> *symbols = &obj.symbols;
    if (rs.type == SHT_CUDA_MERC_RELA) {
      if (rs.link >= obj.elf.sections.size())
        continue;
      merc_symbols = read_symbols(obj.elf, obj.elf.sections[rs.link]);
      symbols = &merc_symbols;
    }
    for (const ElfReloc &r : read_relocs(rs)) {
      if (r.sym >= symbols->size() || (*symbols)[r.sym].name != fn ||
          (*symbols)[r.sym].type() != STT_FUNC)
        continue;
      for (size_t k = 0; k < entries.size(); k++)
        if (!entries[k].cie && r.offset == entries[k].start + 20)
          found.push_back(k);
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

// The n-th FDE of `fn` (ptxas writes one per function; a relocatable
// link's output may hold more: a previous holder's stub).
std::optional<size_t> function_frame_entry(const InputObject &obj, u32 sec, std::string_view fn,
                                           size_t occurrence = 0) {
  std::vector<size_t> found = function_frame_entries(obj, sec, fn);
  if (occurrence < found.size())
    return found[occurrence];
  return std::nullopt;
}

struct MercuryFde {
  std::vector<u8> program;
  u64 code_align = 1;
  u64 range = 0;
};

// Function `fn`'s FDE in `obj`'s .nv.merc.debug_frame: the entry at the
// index of its SASS FDE (ptxas writes both lists in the same order).
// (`occurrence` n > 0: the n-th further FDE of the function, which only a
// relocatable link's output holds: a previous holder's entry.)
std::optional<MercuryFde> mercury_frame_entry(const InputObject &obj, std::string_view fn,
                                              size_t occurrence = 0) {
  auto sass = obj.elf.find_section(".debug_frame");
  auto merc = obj.elf.find_section(".nv.merc.debug_frame");
  if (!sass || !merc)
    return std::nullopt;
  auto k = function_frame_entry(obj, *sass, fn, occurrence);
  const ElfSection &ss = obj.elf.sections[*sass];
  const ElfSection &ms = obj.elf.sections[*merc];
  const std::vector<u8> sbytes(ss.data.begin(), ss.data.end());
  const std::vector<u8> mbytes(ms.data.begin(), ms.data.end());
  std::vector<FrameEntry> se = parse_frame_entries(sbytes);
  std::vector<FrameEntry> me = parse_frame_entries(mbytes);
  // (A relocatable link's output keeps Mercury entries its SASS list
  // dropped, a passed-over weak copy's: there the function's n-th SASS FDE
  // pairs with its n-th Mercury FDE, found by the Mercury relocations;
  // weak_passed_over_reloc's two-stage link.)
  if (obj.prelinked && k) {
    auto mk = function_frame_entry(obj, *merc, fn, occurrence);
    if (!mk)
      return std::nullopt;
    k = mk;
    se = me; // (paired: the sizes compared below agree)
  }
  if (!k || se.size() != me.size() || me[*k].cie || me[*k].end - me[*k].start < 36 ||
      read_le<u32>(mbytes.data() + me[*k].start) != 0xffffffffu)
    return std::nullopt;
  auto caf = cie_code_alignment(mbytes, me[*k].cie_ref);
  if (!caf || !*caf)
    return std::nullopt;
  MercuryFde out;
  out.program.assign(mbytes.begin() + me[*k].start + 36, mbytes.begin() + me[*k].end);
  out.code_align = *caf;
  out.range = read_le<u64>(mbytes.data() + me[*k].start + 28);
  return out;
}

} // namespace

std::optional<std::vector<u8>> InputMerger::mercury_debug_edit(u32 i, u64 offset) {
  if (!ctx_.arch.is_mercury())
    return std::nullopt;
  const ElfSection &in = in_section(i);
  if (in.name == ".debug_frame")
    return filter_debug_frame(i, offset);
  if (in.name == ".debug_line" || in.name == ".nv_debug_line_sass")
    return filter_line_table(i);
  if (in.name == ".nv_debug_info_reg_sass")
    return filter_register_map(i);
  return std::nullopt;
}

std::vector<u8> InputMerger::filter_debug_frame(u32 i, u64 base) {
  const ElfSection &in = in_section(i);
  const std::vector<u8> bytes(in.data.begin(), in.data.end());
  std::vector<FrameEntry> entries = parse_frame_entries(bytes);
  // An FDE's function and CIE come from its relocations.
  u64 last_cie = 0;
  // sm_100+ weak functions whose kept copy changed hands (§15.2): the
  // first definer's entry carries the final copy's SASS CIE and FDE, every
  // later holder's entry a stub built from its Mercury CIE and FDE.
  std::map<u64, std::vector<u8>> replaced_fde; // FDE start -> new CIE + FDE
  std::set<std::string_view> replaced_functions;
  // The FDEs whose CIE pointer is a value, not a relocation (the output of
  // a relocatable link), by start, with their header size: the value is
  // rewritten below.
  std::map<u64, u64> resolved_cie_pointer;
  // The section's relocations (REL and RELA sections in section order, each
  // in its order), sorted by offset, read once.
  std::vector<ElfReloc> relocs;
  for (const ElfSection &rs : obj_.elf.sections)
    if ((rs.type == SHT_RELA || rs.type == SHT_REL) && rs.info == i) {
      std::vector<ElfReloc> more = read_relocs(rs);
      relocs.insert(relocs.end(), more.begin(), more.end());
    }
  std::stable_sort(relocs.begin(), relocs.end(),
                   [](const ElfReloc &a, const ElfReloc &b) { return a.offset < b.offset; });
  for (FrameEntry &e : entries) {
    if (e.cie) {
      last_cie = e.start;
      continue;
    }
    e.cie_ref = last_cie;
    auto header = frame_entry_header(bytes, e.start);
    const u64 pointer_field = header ? e.start + header->header : e.start;
    bool pointer_relocated = false;
    auto first = std::lower_bound(relocs.begin(), relocs.end(), e.start,
                                  [](const ElfReloc &r, u64 off) { return r.offset < off; });
    for (auto it = first; it != relocs.end() && it->offset < e.end; ++it) {
      const ElfReloc &r = *it;
      pointer_relocated |= r.offset == pointer_field;
      if (r.sym >= obj_.symbols.size())
        continue;
      const ElfSymbol &s = obj_.symbols[r.sym];
      bool lost_copy = (discarded_[r.sym] && !winner_elsewhere_.count(r.sym)) ||
                       later_weak_copy_.count(r.sym) || passed_over_copy(r.sym) ||
                       (winner_elsewhere_.count(r.sym) && frames_not_rewritten(s.name));
      if (s.type() == STT_FUNC && (!is_live_function(ctx_, obj_, r.sym) || lost_copy))
        e.keep = false;
      // (A relocatable input may hold a second FDE of the function, the
      // stub of a previous holder: only the first is replaced, the stub
      // stays; weak_mid_holder's two-stage link.)
      if (s.type() == STT_FUNC && s.bind() == STB_WEAK && r.offset == e.start + 20 &&
          !(obj_.prelinked && replaced_functions.count(s.name)))
        if (auto repl = weak_holder_frame(s.name, e.start)) {
          replaced_fde[e.start] = std::move(*repl);
          replaced_functions.insert(s.name);
        }
    }
    if (header && !pointer_relocated)
      resolved_cie_pointer[e.start] = header->header;
  }
  for (FrameEntry &e : entries)
    if (!e.cie && replaced_fde.count(e.start))
      e.keep = true;
  // A CIE stays while a kept FDE that is not replaced uses it.
  for (FrameEntry &e : entries)
    if (e.cie)
      e.keep = std::any_of(entries.begin(), entries.end(), [&](const FrameEntry &f) {
        return !f.cie && f.keep && f.cie_ref == e.start && !replaced_fde.count(f.start);
      });
  std::vector<u8> out;
  auto &ranges = frame_ranges_[i];
  // The bytes go at `base` in the output section: an FDE whose CIE pointer
  // is a value points at the CIE before it in the output, as the relocated
  // ones do (reloc/relocate.cpp; measured with relocatable links' outputs as
  // inputs, first or not).
  u64 last_kept_cie = 0;
  for (const FrameEntry &e : entries) {
    if (!e.keep)
      continue;
    if (e.cie)
      last_kept_cie = out.size();
    if (auto it = replaced_fde.find(e.start); it != replaced_fde.end()) {
      // The new CIE comes first; the FDE's header fields (and their
      // relocations) keep their offsets from the FDE's start.
      u64 cie_len = frame_entry_length(it->second, 0);
      const u64 cie_at = out.size();
      ranges.push_back({e.start, e.end, out.size() + cie_len});
      out.insert(out.end(), it->second.begin(), it->second.end());
      // (A relocatable input's entry: no relocation points the FDE at its
      // new CIE, so the value is written here; measured with weak_regs'
      // two-stage link.)
      if (auto rp = resolved_cie_pointer.find(e.start); rp != resolved_cie_pointer.end()) {
        if (rp->second == 12)
          write_le<u64>(out.data() + cie_at + cie_len + 12, base + cie_at);
        else
          write_le<u32>(out.data() + cie_at + cie_len + 4, static_cast<u32>(base + cie_at));
      }
      continue;
    }
    ranges.push_back({e.start, e.end, out.size()});
    const u64 at = out.size();
    out.insert(out.end(), bytes.begin() + e.start, bytes.begin() + e.end);
    if (auto it = resolved_cie_pointer.find(e.start); it != resolved_cie_pointer.end()) {
      if (it->second == 12) // (the 64-bit format)
        write_le<u64>(out.data() + at + 12, base + last_kept_cie);
      else
        write_le<u32>(out.data() + at + 4, static_cast<u32>(base + last_kept_cie));
    }
  }
  return out;
}

std::vector<u8> InputMerger::filter_line_table(u32 i) {
  const ElfSection &in = in_section(i);
  const std::vector<u8> bytes(in.data.begin(), in.data.end());
  struct Piece {
    u64 start, end;
    bool unit_header;
  };
  std::vector<Piece> pieces;
  auto uleb = [&](u64 &p, u64 end) -> std::optional<u64> {
    size_t pos = p;
    auto v = read_uleb128(bytes, pos, end);
    p = pos;
    return v;
  };
  auto parse = [&]() -> bool {
    u64 off = 0;
    while (off < bytes.size()) {
      auto unit = line_unit_at(bytes, off);
      if (!unit)
        return false;
      u64 end = unit->end, program = unit->program;
      u8 opcode_base = unit->opcode_base;
      if (program > end || opcode_base == 0 || off + 15 + opcode_base - 1 > end)
        return false;
      std::span<const u8> lengths = unit->standard_opcode_lengths;
      pieces.push_back({off, program, true});
      u64 p = program, seq = program;
      while (p < end) {
        u8 op = bytes[p++];
        if (op == 0) {
          auto n = uleb(p, end);
          if (!n || p + *n > end || *n == 0)
            return false;
          u8 sub = bytes[p];
          p += *n;
          if (sub == 1) { // DW_LNE_end_sequence
            pieces.push_back({seq, p, false});
            seq = p;
          }
        } else if (op == 9) { // DW_LNS_fixed_advance_pc: one uhalf
          p += 2;
        } else if (op < opcode_base) {
          for (u8 k = 0; k < lengths[op - 1]; k++)
            if (!uleb(p, end))
              return false;
        }
      }
      if (p != end || seq != end)
        return false;
      off = end;
    }
    return true;
  };
  if (!parse())
    return bytes;
  // A sequence goes with the function its relocations name.
  std::vector<bool> keep(pieces.size(), true);
  std::vector<std::optional<std::pair<int, size_t>>> order(pieces.size());
  for (const ElfSection &rs : obj_.elf.sections) {
    if ((rs.type != SHT_RELA && rs.type != SHT_REL) || rs.info != i)
      continue;
    for (const ElfReloc &r : read_relocs(rs)) {
      if (r.sym >= obj_.symbols.size() || obj_.symbols[r.sym].type() != STT_FUNC)
        continue;
      for (size_t k = 0; k < pieces.size(); k++)
        if (!pieces[k].unit_header && r.offset >= pieces[k].start && r.offset < pieces[k].end) {
          // (A later weak copy's sequence goes too: measured on sm_100+
          // with glink_3tu's twice<int>.)
          if (!is_live_function(ctx_, obj_, r.sym) || debug_copy_dropped(r.sym))
            keep[k] = false;
          else
            order[k] = symbol_order(mapped_symbol(r.sym));
        }
    }
  }
  // Within a unit the sequences follow the output symbol order of their
  // functions (measured: input k_e, h2, h1, k_d came out h2, h1, k_e, k_d,
  // the order of the output's .symtab); a unit with a sequence of no known
  // function keeps its order.
  std::vector<size_t> seq;
  auto flush = [&](std::vector<size_t> &list, std::vector<size_t> &ordered) {
    if (std::all_of(list.begin(), list.end(), [&](size_t k) { return order[k].has_value(); }))
      std::stable_sort(list.begin(), list.end(), [&](size_t a, size_t b) { return *order[a] < *order[b]; });
    ordered.insert(ordered.end(), list.begin(), list.end());
    list.clear();
  };
  std::vector<size_t> ordered;
  for (size_t k = 0; k < pieces.size(); k++) {
    if (pieces[k].unit_header) {
      flush(seq, ordered);
      ordered.push_back(k);
    } else if (keep[k]) {
      seq.push_back(k);
    }
  }
  flush(seq, ordered);
  bool same = ordered.size() == pieces.size();
  for (size_t k = 0; same && k < ordered.size(); k++)
    same = ordered[k] == k;
  if (same)
    return bytes;
  std::vector<u8> out;
  auto &ranges = frame_ranges_[i];
  u64 unit_at = 0;
  for (size_t k : ordered) {
    if (pieces[k].unit_header)
      unit_at = out.size();
    ranges.push_back({pieces[k].start, pieces[k].end, out.size()});
    out.insert(out.end(), bytes.begin() + pieces[k].start, bytes.begin() + pieces[k].end);
    write_le<u32>(out.data() + unit_at, static_cast<u32>(out.size() - unit_at - 4));
  }
  // (By input offset, for surviving_offset's search: the pieces do not overlap.)
  std::sort(ranges.begin(), ranges.end(), [](const FrameRange &a, const FrameRange &b) { return a.start < b.start; });
  return out;
}

std::vector<u8> InputMerger::filter_register_map(u32 i) {
  const ElfSection &in = in_section(i);
  std::vector<u8> bytes(in.data.begin(), in.data.end());
  const std::vector<u8> original = bytes;
  auto cstring = [&](size_t &p) -> std::optional<std::string_view> {
    auto nul = std::find(bytes.begin() + p, bytes.end(), u8(0));
    if (nul == bytes.end())
      return std::nullopt;
    std::string_view name(reinterpret_cast<const char *>(bytes.data() + p),
                          static_cast<size_t>(nul - bytes.begin()) - p);
    p = static_cast<size_t>(nul - bytes.begin()) + 1;
    return name;
  };
  size_t p = 0;
  while (p < bytes.size()) {
    auto fn = cstring(p);
    if (!fn || fn->empty() || p + 4 > bytes.size())
      return original;
    u32 count = read_le<u32>(bytes.data() + p);
    p += 4;
    bool dead = false;
    for (u32 k = 1; k < obj_.symbols.size(); k++)
      if (obj_.symbols[k].name == *fn && obj_.symbols[k].type() == STT_FUNC &&
          obj_.symbols[k].shndx != SHN_UNDEF) {
        dead = !is_live_function(ctx_, obj_, k) || debug_copy_dropped(k);
        break;
      }
    for (u32 e = 0; e < count; e++) {
      if (p + 4 > bytes.size())
        return original;
      p += 4;
      if (!cstring(p) || p + 12 > bytes.size())
        return original;
      p += 4;
      if (dead)
        std::fill(bytes.begin() + p, bytes.begin() + p + 8, u8(0));
      p += 8;
    }
  }
  return bytes;
}

std::optional<std::pair<int, size_t>> InputMerger::symbol_order(const OutputSymbol *sym) const {
  if (!sym)
    return std::nullopt;
  const std::vector<OutputSymbol *> &list = sym->bind == STB_LOCAL ? ctx_.out.locals : ctx_.out.globals;
  auto it = std::find(list.begin(), list.end(), sym);
  if (it == list.end())
    return std::nullopt;
  return std::make_pair(sym->bind == STB_LOCAL ? 0 : 1, static_cast<size_t>(it - list.begin()));
}

std::optional<std::vector<u8>> InputMerger::weak_holder_frame(std::string_view fn, u64 fde_start) {
  auto it = ctx_.out.weak_holders.find(fn);
  if (it == ctx_.out.weak_holders.end() || it->second.size() < 2)
    return std::nullopt;
  const std::vector<u32> &holders = it->second;
  // A relocatable link's output among the holders (measured: the
  // weak_regs, weak_passed_over_reloc and weak_mid_holder inputs, -r of one
  // or two of them linked before, between or after the others, sm_100 and
  // sm_120): identical as the first definer, and as a later holder made
  // from one input; not reproduced, so refused: a later holder holding
  // several copies' frame entries (-r of two inputs), and a first definer
  // whose frames are not rewritten (a copy with code relocations) and that
  // has its own constant bank (weak_later_banks with heavy.cu linked by -r
  // first: the section names differ). Without a bank such a first definer
  // is identical (every split of weak_passed_over_reloc, weak_helper_replaced,
  // weak_kernel_replaced, weak_mid_reloc, indirect_weak_replaced and
  // glink_capsule_tokens at sm_100 to sm_121).
  if (obj_.prelinked) {
    auto refuse = [&](std::string_view why) {
      ctx_.diag.fatal(fmt::format("Input file '{}' is the output of a relocatable link (-r) holding "
                                  "a copy of the weak function '{}' that {}; linking it is not "
                                  "supported by dlink yet",
                                  obj_.name, fn, why));
    };
    if (holders.front() == obj_.index && frames_not_rewritten(fn) &&
        obj_.elf.section_named(".nv.constant2." + std::string(fn)))
      refuse("is replaced, its frames not rewritten (a copy with code relocations and its own "
             "constant bank)");
  }
  if (frames_not_rewritten(fn))
    return std::nullopt;
  if (holders.front() == obj_.index) {
    const InputObject *winner = input_by_index(holders.back());
    if (!winner)
      return std::nullopt;
    auto sec = winner->elf.find_section(".debug_frame");
    if (!sec)
      return std::nullopt;
    auto k = function_frame_entry(*winner, *sec, fn);
    if (!k)
      return std::nullopt;
    const std::vector<u8> wbytes(winner->elf.sections[*sec].data.begin(),
                                 winner->elf.sections[*sec].data.end());
    std::vector<FrameEntry> we = parse_frame_entries(wbytes);
    const FrameEntry &fde = we[*k];
    if (read_le<u32>(wbytes.data() + fde.start) != 0xffffffffu)
      return std::nullopt;
    std::vector<u8> out(wbytes.begin() + fde.cie_ref,
                        wbytes.begin() + frame_entry_end(wbytes, fde.cie_ref));
    std::vector<u8> merged(wbytes.begin() + fde.start, wbytes.begin() + fde.end);
    if (auto m = merged_holder_fde(fn, holders, *winner, wbytes, *k))
      merged = std::move(*m);
    out.insert(out.end(), merged.begin(), merged.end());
    return out;
  }
  if (std::find(holders.begin() + 1, holders.end(), obj_.index) == holders.end())
    return std::nullopt;
  auto sass = obj_.elf.find_section(".debug_frame");
  auto merc = obj_.elf.find_section(".nv.merc.debug_frame");
  if (!sass || !merc)
    return std::nullopt;
  auto k = function_frame_entry(obj_, *sass, fn);
  const std::vector<u8> sbytes(in_section(*sass).data.begin(), in_section(*sass).data.end());
  const std::vector<u8> mbytes(in_section(*merc).data.begin(), in_section(*merc).data.end());
  std::vector<FrameEntry> se = parse_frame_entries(sbytes);
  std::vector<FrameEntry> me = parse_frame_entries(mbytes);
  // The Mercury copy lists the same entries in the same order (a
  // relocatable link's output: the function's first Mercury FDE, found by
  // its relocation, pairs with its first SASS FDE).
  if (!k || se[*k].start != fde_start)
    return std::nullopt;
  auto mk = obj_.prelinked ? function_frame_entry(obj_, *merc, fn) : k;
  if (!obj_.prelinked && se.size() != me.size())
    return std::nullopt;
  if (!mk || *mk >= me.size() || me[*mk].cie || mbytes.size() < me[*mk].start + 36 ||
      read_le<u32>(mbytes.data() + me[*mk].start) != 0xffffffffu)
    return std::nullopt;
  const FrameEntry &mfde = me[*mk];
  std::vector<u8> out(mbytes.begin() + mfde.cie_ref,
                      mbytes.begin() + frame_entry_end(mbytes, mfde.cie_ref));
  std::vector<u8> stub(0x28, 0);
  write_le<u32>(stub.data(), 0xffffffffu);
  write_le<u64>(stub.data() + 4, stub.size() - 12);
  write_le<u64>(stub.data() + 28, read_le<u64>(mbytes.data() + mfde.start + 28));
  out.insert(out.end(), stub.begin(), stub.end());
  return out;
}

std::optional<std::vector<u8>> InputMerger::merged_holder_fde(std::string_view fn, const std::vector<u32> &holders,
                                                 const InputObject &winner, const std::vector<u8> &wbytes,
                                                 size_t k) {
  std::vector<FrameEntry> we = parse_frame_entries(wbytes);
  const FrameEntry &fde = we[k];
  constexpr u64 kHeader = 36; // 64-bit length, CIE pointer, start, range
  if (fde.end - fde.start < kHeader)
    return std::nullopt;
  auto sass_caf = cie_code_alignment(wbytes, fde.cie_ref);
  auto kept = decode_frame_rows(
      std::span<const u8>(wbytes).subspan(fde.start + kHeader, fde.end - fde.start - kHeader));
  // (A relocatable link's output holding the kept copy and the frame
  // entries of the copies it replaced: which Mercury FDE is the kept
  // copy's is not known; weak_mid_holder's inputs as mid, then -r of wide
  // and narrow.)
  if (auto merc = winner.elf.find_section(".nv.merc.debug_frame");
      winner.prelinked && merc && function_frame_entries(winner, *merc, fn).size() > 1)
    ctx_.diag.fatal(fmt::format("Input file '{}' is the output of a relocatable link (-r) holding "
                                "the kept copy of the weak function '{}' and frame entries of "
                                "copies it replaced; linking it is not supported by dlink yet",
                                winner.name, fn));
  auto wmerc = mercury_frame_entry(winner, fn);
  auto text_idx = winner.elf.find_section(".text." + std::string(fn));
  if (!sass_caf || !*sass_caf || !kept || !wmerc || !text_idx)
    return std::nullopt;
  auto wmerc_rows = decode_frame_rows(wmerc->program);
  if (!wmerc_rows)
    return std::nullopt;
  // Known (SASS, Mercury) instruction pairs: the rows of both FDEs, and
  // EIATTR_ANNOTATIONS offsets.
  std::vector<std::pair<u64, u64>> anchors;
  if (wmerc_rows->size() == kept->size())
    for (size_t i = 0; i < kept->size(); i++)
      anchors.emplace_back((*kept)[i].loc * *sass_caf, (*wmerc_rows)[i].loc * wmerc->code_align);
  auto ann = [&](const std::string &sec) {
    std::vector<std::pair<u32, u32>> v;
    if (auto idx = winner.elf.find_section(sec)) {
      const ElfSection &es = winner.elf.sections[*idx];
      try {
        for (const EiRecord &r : parse_eiattrs({es.data.data(), es.data.size()}))
          if (r.attr == EIATTR_ANNOTATIONS && r.format == EIFMT_SVAL)
            for (size_t i = 0; i + 1 < r.payload.size() / 4; i += 2)
              v.emplace_back(r.payload_u32(i), r.payload_u32(i + 1));
      } catch (const std::exception &) {
      }
    }
    return v;
  };
  auto sann = ann(".nv.info." + std::string(fn)), mann = ann(".nv.merc.nv.info." + std::string(fn));
  if (sann.size() == mann.size())
    for (size_t i = 0; i < sann.size(); i++)
      if (sann[i].first == mann[i].first)
        anchors.emplace_back(sann[i].second, mann[i].second);
  const ElfSection &text = winner.elf.sections[*text_idx];
  std::span<const u8> code(text.data.data(), text.data.size());
  // (A kept copy with a CALL gets the rows too: the copies that seemed to
  // say otherwise had a first definer with relocations, whose frames are
  // not rewritten at all, frames_not_rewritten; §15.6.)
  std::vector<FrameRow> added;
  for (size_t h = 0; h + 1 < holders.size(); h++) {
    const InputObject *o = input_by_index(holders[h]);
    // (A relocatable link's output may hold several holders' entries of
    // the function, the first and the previous holders' stubs, each with
    // its Mercury FDE: every one's rows are added; measured with
    // weak_mid_holder's two-stage link on sm_100 and sm_120.)
    for (size_t n = 0; o && (n == 0 || o->prelinked); n++) {
      auto m = mercury_frame_entry(*o, fn, n);
      if (!m && n > 0)
        break;
      auto rows = m ? decode_frame_rows(m->program) : std::nullopt;
      if (!rows)
        continue;
      for (const FrameRow &r : *rows) {
        if (r.loc == 0 && r.ops.empty())
          continue;
        bool determined = false;
        auto s = mercury_to_sass_offset(r.loc * m->code_align, code, wmerc->range, anchors, &determined);
        if (s && *s % *sass_caf == 0)
          added.push_back({*s / *sass_caf, r.ops});
      }
    }
  }
  std::stable_sort(added.begin(), added.end(),
                   [](const FrameRow &a, const FrameRow &b) { return a.loc < b.loc; });
  std::vector<u8> program = merge_frame_rows(*kept, added, kHeader);
  std::vector<u8> out(wbytes.begin() + fde.start, wbytes.begin() + fde.start + kHeader);
  out.insert(out.end(), program.begin(), program.end());
  if (out == std::vector<u8>(wbytes.begin() + fde.start, wbytes.begin() + fde.end))
    return std::nullopt;
  write_le<u64>(out.data() + 4, out.size() - 12);
  return out;
}

} // namespace dlink
