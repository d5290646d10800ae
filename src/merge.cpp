// Stage 2: merging inputs (merge.h).
//
// Consumes ctx.inputs; produces ctx.out: output sections with their merged
// bytes, global symbols resolved across inputs, relocations re-targeted at
// output sections and symbols, .nv.info records, call-graph edges and
// prototypes. Nothing here knows final addresses or section indices.
//
// Each input is merged the way nvlink merges it, because the order in which
// sections and symbols are created is visible in the output:
//   pass 1  function symbols, in symbol-table order: the function's .text
//           section, its .nv.info.<f> and, for kernels, .nv.shared.<k>;
//   pass 2  other non-section symbols (variables), creating the sections
//           that hold them;
//   pass 3  section symbols, creating the remaining sections;
//   pass 4  the section headers: .nv.info records, relocations, call graph,
//           prototypes, .nv.compat and notes.
// Data sections with the same name are concatenated, each input's part
// aligned to its own alignment.
#include "merge.h"

#include "dlink/demangle.h"

#include "dead_code.h"
#include "relocatable.h"
#include "dlink/reloc_types.h"
#include "mercury/frame_merge.h"
#include "output_model.h"
#include "validate.h"

#include <algorithm>
#include <set>

namespace dlink {

bool keeps_weak_copy_relocs(std::string_view debug_section) {
  return debug_section.ends_with("debug_info") || debug_section.ends_with("debug_loc");
}

namespace {

bool is_placeholder_name(std::string_view name) {
  return name.starts_with("__UFT") || name.starts_with("__UDT");
}

// One CIE or FDE of a .debug_frame section (32- or 64-bit format).
struct FrameEntry {
  u64 start, end;
  bool cie;
  u64 cie_ref = 0; // FDE: offset of the CIE before it
  bool keep = true;
};

std::vector<FrameEntry> parse_frame_entries(const std::vector<u8> &bytes) {
  std::vector<FrameEntry> entries;
  u64 last_cie = 0;
  for (u64 pos = 0; pos + 8 <= bytes.size();) {
    u32 len32 = read_le<u32>(bytes.data() + pos);
    bool wide = len32 == 0xffffffffu;
    u64 header = wide ? 12 : 4;
    if (wide && pos + 20 > bytes.size())
      break;
    u64 len = wide ? read_le<u64>(bytes.data() + pos + 4) : len32;
    u64 id = wide ? read_le<u64>(bytes.data() + pos + 12) : read_le<u32>(bytes.data() + pos + 4);
    bool cie = wide ? id == ~u64{0} : id == 0xffffffffu;
    if (len == 0 || pos + header + len > bytes.size())
      break;
    if (cie)
      last_cie = pos;
    entries.push_back({pos, pos + header + len, cie, cie ? 0 : last_cie});
    pos += header + len;
  }
  return entries;
}

u64 frame_entry_end(const std::vector<u8> &bytes, u64 pos) {
  u32 len32 = read_le<u32>(bytes.data() + pos);
  return len32 == 0xffffffffu ? pos + 12 + read_le<u64>(bytes.data() + pos + 4) : pos + 4 + len32;
}

u64 frame_entry_length(const std::vector<u8> &bytes, u64 pos) {
  return frame_entry_end(bytes, pos) - pos;
}

// Index (in parse_frame_entries order) of the FDE whose start address is
// relocated against function `fn`.
std::optional<size_t> function_frame_entry(const InputObject &obj, u32 sec, std::string_view fn) {
  const ElfSection &in = obj.elf.sections.at(sec);
  std::vector<FrameEntry> entries = parse_frame_entries({in.data.begin(), in.data.end()});
  for (const ElfSection &rs : obj.elf.sections) {
    if ((rs.type != SHT_RELA && rs.type != SHT_REL) || rs.info != sec)
      continue;
    for (const ElfReloc &r : read_relocs(rs)) {
      if (r.sym >= obj.symbols.size() || obj.symbols[r.sym].name != fn ||
          obj.symbols[r.sym].type() != STT_FUNC)
        continue;
      for (size_t k = 0; k < entries.size(); k++)
        if (!entries[k].cie && r.offset == entries[k].start + 20)
          return k;
    }
  }
  return std::nullopt;
}

class InputMerger {
public:
  InputMerger(Context &ctx, InputObject &obj)
      : ctx_(ctx), obj_(obj), sec_map_(obj.elf.sections.size(), nullptr),
        sec_off_(obj.elf.sections.size(), 0), sym_map_(obj.symbols.size(), nullptr),
        discarded_(obj.symbols.size(), false) {
    for (u32 k = 1; k < obj.symbols.size(); k++)
      if (obj.symbols[k].type() == STT_FUNC && obj.symbols[k].shndx != SHN_UNDEF)
        function_definitions_.try_emplace(obj.symbols[k].name, k);
  }

  void run() {
    // Local functions (e.g. the math library's __internal_* helpers) may
    // exist in several inputs under one name: each input's copy gets its own
    // sections, however the names collide.
    for (u32 i = 1; i < obj_.symbols.size(); i++) {
      const ElfSymbol &s = obj_.symbols[i];
      if (s.type() == STT_FUNC && s.bind() == STB_LOCAL && s.shndx != SHN_UNDEF && s.shndx < sec_map_.size())
        local_function_sections_.insert(in_section(s.shndx).name);
    }
    // Weak functions an earlier input already defined (live or not).
    for (u32 i = 1; i < obj_.symbols.size(); i++) {
      const ElfSymbol &s = obj_.symbols[i];
      if (s.type() == STT_FUNC && s.bind() == STB_WEAK && s.shndx != SHN_UNDEF &&
          ctx_.out.weak_function_names.count(s.name) && !is_weak_winner(s.name))
        later_weak_copy_.insert(i);
    }
    merge_function_symbols();
    merge_other_symbols();
    merge_section_symbols();
    merge_section_contents();
    obj_.sym_map = sym_map_;
    obj_.sec_map = sec_map_;
    obj_.sec_off = sec_off_;
    obj_.discarded = discarded_;
    obj_.dropped_ranges = dropped_ranges_;
    obj_.dropped_debug_copies.assign(obj_.symbols.size(), false);
    for (u32 k = 0; k < obj_.symbols.size(); k++)
      obj_.dropped_debug_copies[k] = debug_copy_dropped(k);
    for (const ElfSymbol &s : obj_.symbols)
      if (s.type() == STT_FUNC && s.bind() == STB_WEAK && s.shndx != SHN_UNDEF)
        ctx_.out.weak_function_names.insert(s.name);
  }

private:
  const ElfSection &in_section(u32 i) const { return obj_.elf.sections.at(i); }

  // Output section for input section `i`, created and filled on first use.
  OutputSection *map_section(u32 i) {
    if (i == 0 || i >= sec_map_.size())
      return nullptr;
    if (sec_map_[i])
      return sec_map_[i];
    if (is_dead_section(i) || holds_only_dropped_variables(i))
      return nullptr;
    const ElfSection &in = in_section(i);
    if (is_mercury_section(in))
      return nullptr; // merged by the capsule-Mercury stage
    if (is_function_bank(in.name) && !lost_copy_of_unbanked_function(in.name) &&
        !relocatable_output(ctx_)) // (-r: an ordinary section)
      return detach_function_bank(i);
    std::string_view name = output_name(in.name);
    OutputSection *out = local_function_sections_.count(name) ? nullptr : find_section(ctx_, name);
    if (!out && ctx_.arch.is_mercury() && name.starts_with(".nv.constant0.")) {
      // sm_100+: kernel parameter banks are created after the merge.
      out = new_section(ctx_, name, in.type, in.flags & ~u64(SHF_INFO_LINK), in.addralign,
                        in.entsize);
      ctx_.out.deferred_sections.push_back(out);
      ctx_.out.deferred_by_name.emplace(out->name, out);
    } else if (!out) {
      out = create_section(ctx_, name, in.type, in.flags & ~u64(SHF_INFO_LINK), in.addralign,
                           in.entsize);
      if (name.starts_with(".nv.constant.optimizer."))
        ctx_.out.optimizer_banks.push_back(
            {nullptr, out, ctx_.arena.save(".nv.constant2." + std::string(name.substr(23)))});
    }
    append_data(out, i);
    if (out->kind == SectionKind::Text)
      out->info_high = in.info & 0xff000000u;
    return out;
  }

  // Capsule-Mercury sections (sm_100+) form a world of their own, merged
  // after the SASS sections.
  static bool is_mercury_section(const ElfSection &in) { return (in.flags & SHF_CUDA_MERC) != 0; }

  // The output section an input section goes to. On sm_100 and newer nvlink
  // works with the bank names of the Mercury world (".nv.constant.user" for
  // bank 3), renaming them when the link is done.
  std::string_view output_name(std::string_view name) const {
    if (ctx_.arch.is_mercury() && name == ".nv.constant3")
      return ".nv.constant.user";
    // A kernel's own optimizer constants (§16): ".nv.constant.optimizer.<k>"
    // until finish_sections.
    if (ctx_.arch.is_mercury() && name.starts_with(".nv.constant2."))
      return ctx_.arena.save(".nv.constant.optimizer." + std::string(name.substr(14)));
    return name;
  }

  // ".nv.constant<N>.<f>" (N != 0) of a function that is not a kernel.
  // ".nv.constant<digits>.<name>": a kernel's parameter bank or a function's
  // own bank.
  static bool names_per_function_bank(std::string_view name) {
    constexpr size_t kPrefix = sizeof(".nv.constant") - 1;
    if (!name.starts_with(".nv.constant"))
      return false;
    size_t i = kPrefix;
    while (i < name.size() && name[i] >= '0' && name[i] <= '9')
      i++;
    return i > kPrefix && i < name.size() && name[i] == '.';
  }

  bool is_function_bank(std::string_view name) const {
    if (!name.starts_with(".nv.constant") || name.starts_with(".nv.constant0."))
      return false;
    size_t dot = name.find('.', 12);
    if (dot == std::string_view::npos)
      return false;
    std::string_view fn = name.substr(dot + 1);
    for (const ElfSymbol &s : obj_.symbols)
      if (s.type() == STT_FUNC && s.name == fn)
        return !(s.other & STO_CUDA_ENTRY);
    return false;
  }

  // The bank of a dropped weak copy whose kept definition (merged earlier)
  // has no such bank stays an ordinary section: nothing is copied into the
  // kernels' banks.
  bool lost_copy_of_unbanked_function(std::string_view name) const {
    auto k = defined_function(name.substr(name.find('.', 12) + 1));
    return k && discarded_[*k] && !winner_elsewhere_.count(*k) &&
           !ctx_.out.banked_functions.count(name);
  }

  // This input's definition of function `fn`, if it has one (the first).
  std::optional<u32> defined_function(std::string_view fn) const {
    auto it = function_definitions_.find(fn);
    if (it == function_definitions_.end())
      return std::nullopt;
    return it->second;
  }

  OutputSection *detach_function_bank(u32 i) {
    const ElfSection &in = in_section(i);
    auto *bank = ctx_.arena.make<OutputSection>();
    bank->name = ctx_.arena.save(in.name);
    bank->kind = SectionKind::Constant;
    bank->type = in.type;
    bank->flags = in.flags;
    bank->align = std::max<u64>(in.addralign, 1);
    bank->detached = true;
    bank->bank_function = bank->name.substr(bank->name.find('.', 12) + 1);
    if (auto k = defined_function(bank->bank_function)) {
      bank->lost_copy = discarded_[*k];
      bank->superseded_copy = winner_elsewhere_.count(*k) > 0;
      bank->passed_over = passed_over_copy(*k);
      bank->bank_input = &obj_;
      bank->bank_symbol = *k;
      bank->bank_local = obj_.symbols[*k].bind() == STB_LOCAL;
    }
    if (!bank->lost_copy)
      ctx_.out.banked_functions.insert(bank->name);
    bank->data.assign(in.data.begin(), in.data.end());
    bank->size = bank->data.size();
    ctx_.out.function_banks.push_back(bank);
    sec_map_[i] = bank;
    sec_off_[i] = 0;
    return bank;
  }

  void append_data(OutputSection *out, u32 i) {
    const ElfSection &in = in_section(i);
    out->flags |= in.flags & SHF_INFO_LINK;
    u64 align = std::max<u64>(in.addralign, 1);
    out->align = std::max(out->align, align);
    u64 offset = align_to(out->size, align);
    if (out->has_file_data()) {
      out->data.resize(offset, 0);
      if (ctx_.arch.is_mercury() && out->kind == SectionKind::Debug && in.name == ".debug_frame") {
        std::vector<u8> kept = filter_debug_frame(i);
        out->data.insert(out->data.end(), kept.begin(), kept.end());
      } else if (ctx_.arch.is_mercury() && out->kind == SectionKind::Debug &&
                 (in.name == ".debug_line" || in.name == ".nv_debug_line_sass")) {
        std::vector<u8> kept = filter_line_table(i);
        out->data.insert(out->data.end(), kept.begin(), kept.end());
      } else if (ctx_.arch.is_mercury() && out->kind == SectionKind::Debug &&
                 in.name == ".nv_debug_info_reg_sass") {
        std::vector<u8> kept = filter_register_map(i);
        out->data.insert(out->data.end(), kept.begin(), kept.end());
      } else {
        out->data.insert(out->data.end(), in.data.begin(), in.data.end());
      }
      out->size = out->data.size();
    } else {
      out->size = offset + in.size;
    }
    if (ctx_.out.constant_bank.enabled && in.name == ".nv.constant3" && out->has_file_data())
      note_constant_chunk(out, in, offset, align);
    sec_map_[i] = out;
    sec_off_[i] = offset;
  }

  // Kernel pruning: where this input's constant bank bytes go (merge.h).
  void note_constant_chunk(OutputSection *out, const ElfSection &in, u64 offset, u64 align) {
    auto &bank = ctx_.out.constant_bank;
    if (bank.section != out) { // (one bank: the first chunk creates it)
      bank.section = out;
      bank.chunks.clear();
      bank.size = 0;
    }
    OutputModel::ConstantChunk c{offset, in.data.size(), 0, true, in.data};
    const bool later = !bank.chunks.empty();
    const bool dedups = later && constant_bank_dedups(in.data.size(), align);
    if (dedups)
      for (const auto &e : bank.chunks)
        if (e.size == c.size && std::equal(e.input.begin(), e.input.end(), in.data.begin()) && e.packed % align == 0) {
          c.packed = e.packed;
          c.own_bytes = false;
          bank.shared = true;
          break;
        }
    if (c.own_bytes) {
      c.packed = align_to(bank.size, align);
      bank.size = c.packed + c.size;
      if (dedups)
        ctx_.out.null_symbol_value = c.packed;
    }
    bank.chunks.push_back(c);
  }

  // sm_100+: nvlink rewrites .debug_frame without the entries (FDEs) of
  // functions that do not reach the output, and without the CIEs no kept
  // entry uses. Records which input byte ranges survive, and where.
  std::vector<u8> filter_debug_frame(u32 i) {
    const ElfSection &in = in_section(i);
    const std::vector<u8> bytes(in.data.begin(), in.data.end());
    std::vector<FrameEntry> entries = parse_frame_entries(bytes);
    // An FDE's function and CIE come from its relocations.
    u64 last_cie = 0;
    // sm_100+ weak functions whose kept copy changed hands (§15.2): the
    // first definer's entry carries the final copy's SASS CIE and FDE, every
    // later holder's entry a stub built from its Mercury CIE and FDE.
    std::map<u64, std::vector<u8>> replaced_fde; // FDE start -> new CIE + FDE
    for (FrameEntry &e : entries) {
      if (e.cie) {
        last_cie = e.start;
        continue;
      }
      e.cie_ref = last_cie;
      for (const ElfSection &rs : obj_.elf.sections) {
        if ((rs.type != SHT_RELA && rs.type != SHT_REL) || rs.info != i)
          continue;
        for (const ElfReloc &r : read_relocs(rs)) {
          if (r.offset < e.start || r.offset >= e.end || r.sym >= obj_.symbols.size())
            continue;
          const ElfSymbol &s = obj_.symbols[r.sym];
          bool lost_copy = (discarded_[r.sym] && !winner_elsewhere_.count(r.sym)) ||
                           later_weak_copy_.count(r.sym) || passed_over_copy(r.sym) ||
                           (winner_elsewhere_.count(r.sym) && frames_not_rewritten(s.name));
          if (s.type() == STT_FUNC && (!is_live_function(ctx_, obj_, r.sym) || lost_copy))
            e.keep = false;
          if (s.type() == STT_FUNC && s.bind() == STB_WEAK && r.offset == e.start + 20)
            if (auto repl = weak_holder_frame(s.name, e.start))
              replaced_fde[e.start] = std::move(*repl);
        }
      }
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
    for (const FrameEntry &e : entries) {
      if (!e.keep)
        continue;
      if (auto it = replaced_fde.find(e.start); it != replaced_fde.end()) {
        // The new CIE comes first; the FDE's header fields (and their
        // relocations) keep their offsets from the FDE's start.
        u64 cie_len = frame_entry_length(it->second, 0);
        ranges.push_back({e.start, e.end, out.size() + cie_len});
        out.insert(out.end(), it->second.begin(), it->second.end());
        continue;
      }
      ranges.push_back({e.start, e.end, out.size()});
      out.insert(out.end(), bytes.begin() + e.start, bytes.begin() + e.end);
    }
    return out;
  }

  // Whether nvlink drops the debug records (FDE rows, line sequences,
  // relocations outside .debug_info) of this input's function symbol `k`:
  // a weak copy that did not keep the definition. (A later holder replaced
  // in its turn, mid of wide:mid:narrow, is in later_weak_copy_ too: its
  // records stay.)
  bool debug_copy_dropped(u32 k) const {
    return (!winner_elsewhere_.count(k) && (discarded_[k] || later_weak_copy_.count(k))) ||
           passed_over_copy(k) || (winner_elsewhere_.count(k) && frames_not_rewritten(obj_.symbols[k].name));
  }

  // sm_100+ (-lineinfo): nvlink rewrites .debug_line and .nv_debug_line_sass
  // without the line-number sequences (DW_LNE_set_address .. end_sequence)
  // of functions that do not reach the output; each unit's unit_length
  // shrinks accordingly. (The Mercury twins are copied as they are.)
  // Records which input byte ranges survive, and where; an input this does
  // not parse is copied unchanged.
  std::vector<u8> filter_line_table(u32 i) {
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
        if (off + 15 > bytes.size())
          return false;
        u32 unit_length = read_le<u32>(bytes.data() + off);
        if (unit_length >= 0xfffffff0u)
          return false; // (64-bit DWARF: not written by ptxas)
        u64 end = off + 4 + unit_length;
        u64 program = off + 10 + read_le<u32>(bytes.data() + off + 6);
        u8 opcode_base = bytes[off + 14];
        if (end > bytes.size() || program > end || opcode_base == 0 || off + 15 + opcode_base - 1 > end)
          return false;
        std::vector<u8> lengths(bytes.begin() + off + 15, bytes.begin() + off + 15 + opcode_base - 1);
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
    return out;
  }

  // sm_100+ -G: .nv_debug_info_reg_sass lists, per function (its name,
  // NUL, u32 count), entries of u32, register name, NUL, 3 bytes, u8 kind
  // (2 predicate, 5 register), u32 start and u32 end code offsets. nvlink
  // zeroes start and end of every entry of a function the link removes
  // (measured: gdebug_single's never_called, gdebug_2tu's unused_fn; sm_90
  // keeps them; the Mercury twin is copied as it is). An input this does
  // not parse is copied unchanged.
  std::vector<u8> filter_register_map(u32 i) {
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

  // Where `sym` comes in the output's .symtab: locals, then globals, each
  // in creation order (writer.cpp); nullopt if unknown.
  std::optional<std::pair<int, size_t>> symbol_order(const OutputSymbol *sym) const {
    if (!sym)
      return std::nullopt;
    const std::vector<OutputSymbol *> &list = sym->bind == STB_LOCAL ? ctx_.out.locals : ctx_.out.globals;
    auto it = std::find(list.begin(), list.end(), sym);
    if (it == list.end())
      return std::nullopt;
    return std::make_pair(sym->bind == STB_LOCAL ? 0 : 1, static_cast<size_t>(it - list.begin()));
  }

  // sm_100+: the CIE + FDE that replace this input's FDE of weak function
  // `fn` when the kept copy changed hands during the link (§15.2).
  //  * the first definer's FDE: the final holder's SASS CIE and FDE;
  //  * a later holder's FDE: its own Mercury CIE and a stub FDE (CIE
  //    pointer, start, the Mercury FDE's range, four zero bytes).
  // (The first definer's FDE is the final holder's with the replaced
  // copies' rows added: merged_holder_fde, §15.5.)
  std::optional<std::vector<u8>> weak_holder_frame(std::string_view fn, u64 fde_start) {
    auto it = ctx_.out.weak_holders.find(fn);
    if (it == ctx_.out.weak_holders.end() || it->second.size() < 2 || frames_not_rewritten(fn))
      return std::nullopt;
    const std::vector<u32> &holders = it->second;
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
    // The Mercury copy lists the same entries in the same order.
    if (!k || se.size() != me.size() || se[*k].start != fde_start || me[*k].cie ||
        mbytes.size() < me[*k].start + 36 || read_le<u32>(mbytes.data() + me[*k].start) != 0xffffffffu)
      return std::nullopt;
    const FrameEntry &mfde = me[*k];
    std::vector<u8> out(mbytes.begin() + mfde.cie_ref,
                        mbytes.begin() + frame_entry_end(mbytes, mfde.cie_ref));
    std::vector<u8> stub(0x28, 0);
    write_le<u32>(stub.data(), 0xffffffffu);
    write_le<u64>(stub.data() + 4, stub.size() - 12);
    write_le<u64>(stub.data() + 28, read_le<u64>(mbytes.data() + mfde.start + 28));
    out.insert(out.end(), stub.begin(), stub.end());
    return out;
  }

  // The final holder's SASS FDE (entry `k` of `wbytes`) with the rows of
  // the copies it replaced added (§15.5): each replaced holder's Mercury FDE
  // rows, placed at the final holder's instruction that starts at the same
  // Mercury offset. nullopt: nothing to add (or not readable), so the FDE is
  // copied as it is.
  std::optional<std::vector<u8>> merged_holder_fde(std::string_view fn, const std::vector<u32> &holders,
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
      auto m = o ? mercury_frame_entry(*o, fn) : std::nullopt;
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

  struct MercuryFde {
    std::vector<u8> program;
    u64 code_align = 1;
    u64 range = 0;
  };

  // Function `fn`'s FDE in `obj`'s .nv.merc.debug_frame: the entry at the
  // index of its SASS FDE (ptxas writes both lists in the same order).
  std::optional<MercuryFde> mercury_frame_entry(const InputObject &obj, std::string_view fn) const {
    auto sass = obj.elf.find_section(".debug_frame");
    auto merc = obj.elf.find_section(".nv.merc.debug_frame");
    if (!sass || !merc)
      return std::nullopt;
    auto k = function_frame_entry(obj, *sass, fn);
    const ElfSection &ss = obj.elf.sections[*sass];
    const ElfSection &ms = obj.elf.sections[*merc];
    const std::vector<u8> sbytes(ss.data.begin(), ss.data.end());
    const std::vector<u8> mbytes(ms.data.begin(), ms.data.end());
    std::vector<FrameEntry> se = parse_frame_entries(sbytes);
    std::vector<FrameEntry> me = parse_frame_entries(mbytes);
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

  // The code alignment factor of the 64-bit-format CIE at `pos`.
  static std::optional<u64> cie_code_alignment(const std::vector<u8> &bytes, u64 pos) {
    if (pos + 21 > bytes.size() || read_le<u32>(bytes.data() + pos) != 0xffffffffu)
      return std::nullopt;
    u64 end = frame_entry_end(bytes, pos);
    u64 p = pos + 21; // length, CIE id, version
    while (p < end && bytes[p] != 0)
      p++; // augmentation string
    size_t q = p + 1;
    return read_uleb128(bytes, q, end);
  }

  // A weak copy merged before the kept one that never held the function
  // (it did not beat the copy held when it was merged, §15.2): its debug
  // records go like those of a copy merged after the kept one.
  bool passed_over_copy(u32 k) const {
    if (!winner_elsewhere_.count(k))
      return false;
    auto it = ctx_.out.weak_holders.find(obj_.symbols[k].name);
    return it != ctx_.out.weak_holders.end() &&
           std::find(it->second.begin(), it->second.end(), obj_.index) == it->second.end();
  }

  // Whether nvlink leaves the frame entries alone when the kept copy of weak
  // function `fn` changes hands: where the first definer's copy has its own
  // constant bank with a relocation section (".rela.nv.constant2.<fn>";
  // sm_75-89 banks have none), or, sm_90+, where a copy that held the
  // function and was replaced (the first definer, or a later holder that
  // lost in its turn: mid of wide:mid:narrow) has code relocations
  // (".rela.text.<fn>": calls, __device__ variables). Then the debug
  // records of the copies merged before the kept one go (sm_100+: their
  // entries too), and the kept copy keeps its own (probes a2:b0, a2:c1:b0,
  // a2:ub0 vs ua2:b0 on sm_90/sm_100/sm_120, §6; §15.6). sm_75-89 keep
  // them whatever the code relocations; the final holder's do not count.
  bool frames_not_rewritten(std::string_view fn) const {
    auto it = ctx_.out.weak_holders.find(fn);
    if (it == ctx_.out.weak_holders.end() || it->second.size() < 2)
      return false;
    const InputObject *first = input_by_index(it->second.front());
    if (first && first->elf.find_section(".rela.nv.constant2." + std::string(fn)))
      return true;
    if (ctx_.arch.sm < 90)
      return false;
    std::string text = ".text." + std::string(fn);
    for (size_t h = 0; h + 1 < it->second.size(); h++) {
      const InputObject *o = input_by_index(it->second[h]);
      if (!o)
        continue;
      for (const ElfSection &sec : o->elf.sections)
        if ((sec.type == SHT_RELA || sec.type == SHT_REL) && sec.info < o->elf.sections.size() &&
            o->elf.sections[sec.info].name == text)
          return true;
    }
    return false;
  }

  const InputObject *input_by_index(u32 index) const {
    for (const InputObject *o : ctx_.inputs)
      if (o->index == index)
        return o;
    return nullptr;
  }

  // Where input offset `offset` of section `i` ended up (relative to the
  // input's part of the merged section), if it survived.
  std::optional<u64> surviving_offset(u32 i, u64 offset) const {
    auto it = frame_ranges_.find(i);
    if (it == frame_ranges_.end())
      return offset;
    for (const FrameRange &r : it->second)
      if (offset >= r.start && offset < r.end)
        return r.new_start + (offset - r.start);
    return std::nullopt;
  }

  // Sections that belong to a function dead-code elimination removed:
  // .text.<f>, .nv.info.<f>, .nv.constant0.<f>, .nv.constant2.<f>,
  // .nv.shared.<f> and relocation sections for them.
  bool is_dead_section(u32 i) const {
    const ElfSection &in = in_section(i);
    std::string_view name = in.name;
    SectionKind kind = classify_section(name, in.type);
    if (kind == SectionKind::Reloc)
      return in.info < obj_.elf.sections.size() && in.info != i && is_dead_section(in.info);
    std::string_view fn;
    if (kind == SectionKind::Text)
      fn = name.substr(6);
    else if (kind == SectionKind::FunctionInfo)
      fn = name.substr(9);
    else if (kind == SectionKind::Constant && name.starts_with(".nv.constant0."))
      fn = name.substr(14); // a kernel's parameter bank
    else if (kind == SectionKind::Constant && name.starts_with(".nv.constant2.")) {
      // A function's own OCG bank goes with a function dead-code elimination
      // removed (a kernel host code never launches); a lost weak copy's bank
      // still takes part in the bank merge.
      auto k = defined_function(name.substr(14));
      return k && !is_live_function(ctx_, obj_, *k);
    } else if (kind == SectionKind::Shared)
      fn = name.substr(11);
    else
      return false;
    auto k = defined_function(fn);
    return k && dropped_function(*k);
  }

  // An uninitialised-data section whose every variable lost to an earlier
  // weak definition adds nothing to the output.
  bool holds_only_dropped_variables(u32 i) const {
    auto it = dropped_ranges_.find(i);
    if (it == dropped_ranges_.end() || occupies_file_space(in_section(i)))
      return false;
    for (const ElfSymbol &s : obj_.symbols)
      if (s.shndx == i && s.type() != STT_SECTION) {
        bool dropped = std::any_of(it->second.begin(), it->second.end(),
                                   [&](const auto &r) { return r.first == s.value; });
        if (!dropped)
          return false;
      }
    return true;
  }

  bool names_discarded_function(std::string_view fn) const {
    auto k = defined_function(fn);
    return k && discarded_[*k] && is_live_function(ctx_, obj_, *k);
  }

  // Whether this input's copy of weak function `name` is the one kept: the
  // copy with the fewest registers (the first on ties).
  bool is_weak_winner(std::string_view name) const {
    auto it = ctx_.out.weak_winner.find(name);
    return it == ctx_.out.weak_winner.end() || it->second == obj_.index;
  }

  // A function of this input whose definition does not reach the output.
  bool dropped_function(u32 i) const {
    return i < obj_.symbols.size() && (!is_live_function(ctx_, obj_, i) || discarded_[i]);
  }

  std::optional<u32> input_section_named(std::string_view name) const {
    return obj_.elf.find_section(name);
  }

  void define(OutputSymbol *out, const ElfSymbol &in, OutputSection *sec, u64 offset) {
    out->section = sec;
    out->value = in.value + offset;
    out->size = in.size;
    out->other = in.other;
    out->type = in.type();
    out->bind = in.bind();
    out->defined_in = &obj_;
    out->def_order = (u64(obj_.index) << 32) | static_cast<u64>(&in - obj_.symbols.data());
  }

  // A strong function defined twice is an error even where dead-code
  // elimination drops one copy or both; the case of two live copies is
  // reported where the second is merged.
  bool duplicate_of_dead_definition(const ElfSymbol &s, bool live) {
    auto [it, fresh] = ctx_.out.strong_function_defs.try_emplace(std::string(s.name), &obj_, live);
    if (fresh || (live && it->second.second))
      return false;
    ctx_.diag.error(fmt::format("Multiple definition of '{}' in '{}', first defined in '{}'", s.name,
                                obj_.name, it->second.first->name));
    multiple_definition_ = true;
    return true;
  }

  // Every mention of a global function, references included, must agree
  // with the first on being a kernel (measured; reported before a multiple
  // definition, with the demangled name).
  void check_function_kind(const ElfSymbol &s) {
    bool entry = (s.other & STO_CUDA_ENTRY) != 0;
    auto [it, fresh] = ctx_.out.function_is_kernel.try_emplace(std::string(s.name), entry);
    if (fresh || it->second == entry)
      return;
    ctx_.diag.error(fmt::format("Function '{}' not declared __global__ in all source files",
                                demangle(s.name).value_or(std::string(s.name))));
    multiple_definition_ = true;
  }

  // Pass 1.
  void merge_function_symbols() {
    const KernelFilter filter = kernel_filter(ctx_);
    const bool host_pruning = filter.mode == KernelFilter::Mode::HostReferences;
    for (u32 i = 1; i < obj_.symbols.size(); i++) {
      const ElfSymbol &s = obj_.symbols[i];
      if (host_pruning && s.type() == STT_FUNC && !is_live_function(ctx_, obj_, i) &&
          (s.other & STO_CUDA_ENTRY) && s.shndx != SHN_UNDEF) {
        // A kernel pruned by the host references leaves the name of its
        // shared section behind (nvlink creates it in this pass, then drops
        // the section); one pruned by -kernels-used/-variables-used does not.
        std::string shared_name = ".nv.shared." + std::string(s.name);
        if (!find_section(ctx_, shared_name))
          create_section(ctx_, shared_name, SHT_CUDA_SHARED, SHF_WRITE | SHF_ALLOC | SHF_INFO_LINK, 4)
              ->removed = true;
      }
      if (s.type() == STT_FUNC && s.bind() != STB_LOCAL)
        check_function_kind(s);
      if (s.type() == STT_FUNC && s.bind() == STB_GLOBAL && s.shndx != SHN_UNDEF &&
          duplicate_of_dead_definition(s, is_live_function(ctx_, obj_, i)))
        continue;
      if (s.type() != STT_FUNC || !is_live_function(ctx_, obj_, i))
        continue;
      if (s.bind() == STB_LOCAL) {
        merge_local_function(i, s, filter);
        continue;
      }
      OutputSymbol *out = find_global(ctx_, s.name);
      if (!out) {
        out = create_global(ctx_, s.name, s.bind() == STB_WEAK && s.shndx != SHN_UNDEF);
        out->type = STT_FUNC;
        out->bind = s.bind();
        out->first_referenced_in = &obj_;
        if (relocatable_output(ctx_)) // (-r: an undefined kernel stays marked as one)
          out->other = s.other;
      }
      sym_map_[i] = out;
      if (s.shndx == SHN_UNDEF)
        continue;
      if (!out->defined() && s.bind() == STB_WEAK && !is_weak_winner(s.name)) {
        // Another input's copy of this weak function wins (fewer registers);
        // the output section keeps this first occurrence's place.
        if (!find_section(ctx_, in_section(s.shndx).name))
          create_section(ctx_, in_section(s.shndx).name, in_section(s.shndx).type,
                         in_section(s.shndx).flags & ~u64(SHF_INFO_LINK),
                         in_section(s.shndx).addralign, in_section(s.shndx).entsize);
        // A weak kernel (template __global__) also places its .nv.info.<k>
        // and .nv.shared.<k> here, as map_function_sections would (a
        // replaced tk<float>: the names follow .text.<k> in .shstrtab).
        if (s.other & STO_CUDA_ENTRY) {
          std::string info_name = ".nv.info." + std::string(s.name);
          if (input_section_named(info_name) && !find_section(ctx_, info_name))
            create_section(ctx_, info_name, SHT_CUDA_INFO, SHF_INFO_LINK, 4);
          std::string shared_name = ".nv.shared." + std::string(s.name);
          if (!find_section(ctx_, shared_name))
            create_section(ctx_, shared_name, SHT_CUDA_SHARED, SHF_WRITE | SHF_ALLOC | SHF_INFO_LINK, 4);
        }
        discarded_[i] = true;
        winner_elsewhere_.insert(i);
        continue;
      }
      if (out->defined()) {
        if (s.bind() == STB_WEAK || out->bind == STB_WEAK) {
          // The first definition stays; this input's copy is dropped.
          discarded_[i] = true;
          continue;
        }
        ctx_.diag.error(fmt::format("Multiple definition of '{}' in '{}', first defined in '{}'",
                                    s.name, obj_.name, out->defined_in->name));
        multiple_definition_ = true;
        continue;
      }
      OutputSection *text = code_section_of(s, filter);
      define(out, s, text, sec_off_[s.shndx]);
      out->non_root_entry = is_non_root_kernel(filter, s);
      text->func = out;
    }
  }

  // The output code section of a live function (validate.cpp checked that
  // the input section is code; one the merge does not map is corrupt too).
  OutputSection *code_section_of(const ElfSymbol &s, const KernelFilter &filter) {
    OutputSection *text = map_function_sections(s, filter);
    if (!text || text->kind != SectionKind::Text)
      throw InputError(fmt::format("function '{}' is not in a code section", s.name));
    return text;
  }

  void merge_local_function(u32 i, const ElfSymbol &s, const KernelFilter &filter) {
    OutputSymbol *out = create_local(ctx_, s.name);
    sym_map_[i] = out;
    if (s.shndx == SHN_UNDEF)
      return;
    OutputSection *text = code_section_of(s, filter);
    define(out, s, text, sec_off_[s.shndx]);
    out->non_root_entry = is_non_root_kernel(filter, s);
    text->func = out;
  }

  // A kernel kept under -kernels-used/-variables-used only because its
  // address is taken (a child kernel launched from the device,
  // libcudadevrt's memcpy/memset kernels): nvlink merges it like a device
  // function (no .nv.info.<k>/.nv.shared.<k> in pass 1, no MIN_STACK_SIZE),
  // though its symbol stays an entry (docs/notes/inputs.md §10).
  static bool is_non_root_kernel(const KernelFilter &filter, const ElfSymbol &s) {
    return filter.mode == KernelFilter::Mode::KernelsUsed && (s.other & STO_CUDA_ENTRY) &&
           !filter.keeps(s.name);
  }

  // The function's .text, then .nv.info.<f>, then for kernels .nv.shared.<k>.
  OutputSection *map_function_sections(const ElfSymbol &s, const KernelFilter &filter) {
    OutputSection *text = map_section(s.shndx);
    if ((s.other & STO_CUDA_ENTRY) && !is_non_root_kernel(filter, s)) {
      // Kernels get their .nv.info.<k> here; other functions when pass 4
      // reaches the section.
      std::string info_name = ".nv.info." + std::string(s.name);
      if (input_section_named(info_name) && !function_info_section(info_name))
        own_info_sections_[info_name] = create_section(ctx_, info_name, SHT_CUDA_INFO, SHF_INFO_LINK, 4);
      std::string shared_name = ".nv.shared." + std::string(s.name);
      if (auto shared = input_section_named(shared_name)) {
        map_section(*shared);
      } else if (!find_section(ctx_, shared_name)) {
        create_section(ctx_, shared_name, SHT_CUDA_SHARED, SHF_WRITE | SHF_ALLOC | SHF_INFO_LINK,
                       4);
      }
    }
    return text;
  }

  // Pass 2.
  void merge_other_symbols() {
    for (u32 i = 1; i < obj_.symbols.size(); i++) {
      const ElfSymbol &s = obj_.symbols[i];
      if (s.type() == STT_FUNC || s.type() == STT_SECTION)
        continue;
      if (s.bind() == STB_LOCAL) {
        merge_local_variable(i, s);
        continue;
      }
      if (s.type() == STT_CUDA_VARIABLE)
        check_variable_kind(s);
      if (s.is_shared_variable()) {
        // `extern __shared__ x[]` (undefined, no size) is dynamic shared
        // memory; a sized one, or a definition, is a namespace-scope
        // __shared__ variable laid out by the link.
        // (A sized `extern` alone does not create .nv_debug.shared.)
        // A variable first seen as dynamic (and not defined since) stays
        // dynamic when an input defines it: no static space, no
        // kernel counts as using dynamic shared memory through it (no
        // .nv.shared.<kernel> section) and every reference to it resolves
        // to all ones (measured, sm_80-sm_120: 0xffffff in the 24-bit
        // fields; docs/notes/diagnostics.md).
        // A sized `extern` seen after the dynamic one leaves it dynamic (an
        // ordinary dynamic array: the window after the static data).
        OutputSymbol *sym = extern_shared_symbol(s.name, s.shndx != SHN_UNDEF || !s.size);
        auto prior = ctx_.out.shared_declarations.find(s.name);
        const bool dynamic_first = prior != ctx_.out.shared_declarations.end() &&
                                   !prior->second.size && !prior->second.defined;
        if (!sym->def_order) // where first seen, until defined
          sym->def_order = (u64(obj_.index) << 32) | i;
        check_shared_declaration(s);
        if (s.shndx != SHN_UNDEF && dynamic_first) {
          sym->dynamic_then_defined = true;
          sym->extern_shared = true;
          sym->namespace_shared = false;
        } else if ((s.shndx != SHN_UNDEF || s.size) && !dynamic_first && !sym->dynamic_then_defined) {
          sym->extern_shared = false;
          sym->namespace_shared = true;
          sym->size = std::max(sym->size, s.size);
          if (s.shndx != SHN_UNDEF) {
            sym->value = s.value; // the alignment, until layout
            sym->def_order = (u64(obj_.index) << 32) | i;
          }
        }
        sym_map_[i] = sym;
        continue;
      }
      OutputSymbol *out = find_global(ctx_, s.name);
      const bool common = s.shndx == SHN_COMMON;
      bool size_mismatch = false;
      if (!out) {
        // A weak variable's section exists before its (local-array) symbol.
        bool weak_definition = s.bind() == STB_WEAK && s.shndx != SHN_UNDEF && !common;
        if (weak_definition)
          map_section(s.shndx);
        out = create_global(ctx_, s.name, weak_definition);
        out->type = s.type();
        out->bind = s.bind();
        out->other = s.other;
        out->size = s.size;
        out->first_referenced_in = &obj_;
      } else if ((s.type() == STT_CUDA_VARIABLE || s.type() == STT_OBJECT) && out->size && s.size && out->size != s.size &&
                 !(common && out->common)) {
        ctx_.diag.error(fmt::format("Size doesn't match for '{}' in '{}', first specified in '{}'",
                                    s.name, obj_.name, out->first_referenced_in->name));
        multiple_definition_ = true;
        size_mismatch = true;
      }
      sym_map_[i] = out;
      if (s.shndx == SHN_UNDEF)
        continue;
      if (common) {
        merge_common_symbol(out, s);
        continue;
      }
      if (out->common_pending) {
        // A definition after `.common` ones (measured): one of another size
        // is only the size error; one in uninitialised data is ignored (its
        // bytes stay in the section, the common space is still allocated,
        // and a later `.common` is a multiple definition); one in
        // initialised data defines the symbol.
        out->common = false;
        if (size_mismatch || map_section(s.shndx) == nullptr ||
            !map_section(s.shndx)->has_file_data())
          continue;
        out->common_pending = false;
      }
      if (out->defined()) {
        if (s.bind() == STB_WEAK || out->bind == STB_WEAK) {
          // The first definition of a weak variable stays. This copy's bytes
          // remain in initialised data, but relocations inside it go, and in
          // uninitialised data it takes no space.
          dropped_ranges_[s.shndx].emplace_back(s.value, s.value + s.size);
          continue;
        }
        // (nvlink names the input that first mentioned the variable, an
        // `extern` declaration included; measured.)
        ctx_.diag.error(fmt::format("Multiple definition of '{}' in '{}', first defined in '{}'",
                                    s.name, obj_.name, out->first_referenced_in->name));
        multiple_definition_ = true;
        continue;
      }
      OutputSection *sec = map_section(s.shndx);
      define(out, s, sec, sec_off_[s.shndx]);
      if (sec && sec->kind == SectionKind::SharedReserved) {
        out->value = s.value; // the alignment, until layout
        sec->shared_vars.push_back(out);
      }
    }
  }

  // A `.common` variable (st_shndx SHN_COMMON, st_value its alignment):
  // nvlink keeps the largest size of all its `.common` occurrences and the
  // alignment of the first, then allocates it at the end of .nv.global once
  // every input is merged (allocate_common_symbols).
  void merge_common_symbol(OutputSymbol *out, const ElfSymbol &s) {
    if (out->common) {
      if (s.size > out->size) {
        out->size = s.size;
        out->first_referenced_in = &obj_; // "first specified in" the larger one
      }
      return;
    }
    // (After a definition in initialised data a `.common` is ignored, after
    // one in uninitialised data it is a multiple definition: measured.)
    if (out->defined() && out->section->has_file_data())
      return;
    if (out->defined() || out->common_pending) {
      ctx_.diag.error(fmt::format("Multiple definition of '{}' in '{}', first defined in '{}'",
                                  s.name, obj_.name, out->defined_in->name));
      multiple_definition_ = true;
      return;
    }
    out->common = out->common_pending = true;
    ctx_.out.common_symbols.push_back(out);
    out->common_align = std::max<u64>(s.value, 1);
    out->size = s.size;
    out->other = s.other;
    out->type = s.type();
    out->bind = s.bind();
    out->defined_in = &obj_;
    out->def_order = (u64(obj_.index) << 32) | static_cast<u64>(&s - obj_.symbols.data());
  }

  // Every mention of a global variable must agree with the first on the
  // memory space and the managed attribute (measured messages, in this
  // order, then the size and definition checks). Shared variables and the
  // others are merged apart, so where the two kinds meet the size and the
  // definitions are checked here: an unsized `extern __shared__` (dynamic
  // shared memory) counts as a definition then.
  void check_variable_kind(const ElfSymbol &s) {
    auto [it, fresh] = ctx_.out.variable_declarations.try_emplace(std::string(s.name));
    OutputModel::VariableDeclaration &decl = it->second;
    const bool shared = s.is_shared_variable();
    const bool defines = s.shndx != SHN_UNDEF;
    const u8 space = s.other & 0xe0;
    const bool managed = (s.other & STO_CUDA_MANAGED) != 0;
    if (fresh) {
      decl = {&obj_, space, managed, shared, s.size, defines || (shared && !s.size)};
      return;
    }
    auto report = [&](std::string_view what, std::string_view verb) {
      ctx_.diag.error(fmt::format("{} for '{}' in '{}', first {} in '{}'", what, s.name, obj_.name,
                                  verb, decl.first->name));
      multiple_definition_ = true;
    };
    if (space != decl.space)
      report("Memory space doesn't match", "specified");
    if (managed != decl.managed)
      report("Managed attribute doesn't match", "specified");
    if (shared != decl.shared) {
      if (decl.size && s.size && decl.size != s.size)
        report("Size doesn't match", "specified");
      if (defines && decl.defined) {
        ctx_.diag.error(fmt::format("Multiple definition of '{}' in '{}', first defined in '{}'",
                                    s.name, obj_.name, decl.first->name));
        multiple_definition_ = true;
      }
    }
    if (defines && !decl.defined) {
      decl.defined = true;
      decl.size = s.size;
    }
  }

  // A namespace-scope `__shared__` variable follows the rules of the other
  // variables (measured): a size that differs from the one first recorded
  // (an unsized `extern` records none; a definition records its own) is
  // "Size doesn't match", a second definition is "Multiple definition"
  // (same size or not), both naming the input that first mentioned the
  // variable.
  void check_shared_declaration(const ElfSymbol &s) {
    auto [it, fresh] = ctx_.out.shared_declarations.try_emplace(std::string(s.name));
    OutputModel::SharedDeclaration &decl = it->second;
    bool defines = s.shndx != SHN_UNDEF;
    if (fresh) {
      decl.first = &obj_;
      decl.size = s.size;
      decl.defined = defines;
      return;
    }
    if (decl.size && s.size && decl.size != s.size) {
      ctx_.diag.error(fmt::format("Size doesn't match for '{}' in '{}', first specified in '{}'",
                                  s.name, obj_.name, decl.first->name));
      multiple_definition_ = true;
    }
    if (!defines)
      return;
    if (decl.defined) {
      ctx_.diag.error(fmt::format("Multiple definition of '{}' in '{}', first defined in '{}'",
                                  s.name, obj_.name, decl.first->name));
      multiple_definition_ = true;
      return;
    }
    decl.defined = true;
    decl.size = s.size;
  }

  // `extern __shared__` arrays all live in the dynamic shared memory after a
  // kernel's static shared memory; nvlink records them with a
  // .nv_debug.shared section instead of symbols (created by the first
  // shared symbol that is not a sized `extern`).
  OutputSymbol *extern_shared_symbol(std::string_view name, bool creates_section = true) {
    if (creates_section && !find_section(ctx_, ".nv_debug.shared")) {
      OutputSection *sec =
          create_section(ctx_, ".nv_debug.shared", SHT_CUDA_SHARED, SHF_WRITE | SHF_ALLOC, 16);
      sec->symbol->removed = !ctx_.opts.debug; // (-g: debug_link.h)
    }
    auto &map = ctx_.out.extern_shared_by_name;
    if (auto it = map.find(name); it != map.end())
      return it->second;
    OutputSymbol *sym = nullptr;
    if (ctx_.opts.debug && creates_section && name.find('\x1f') == std::string_view::npos) {
      // -g: the array is a global symbol of .nv_debug.shared (debug_link.h),
      // in the global array from here on; never found by name (a variable
      // of the same name in another memory space is an error of its own).
      sym = ctx_.arena.make<OutputSymbol>();
      sym->name = ctx_.arena.save(name);
      sym->bind = STB_GLOBAL;
      sym->create_seq = ctx_.out.next_seq++;
      ctx_.out.globals.push_back(sym);
      sym->type = STT_OBJECT;
      sym->section = find_section(ctx_, ".nv_debug.shared");
      sym->debug_shared_symbol = true;
    } else {
      sym = ctx_.arena.make<OutputSymbol>();
      sym->name = ctx_.arena.save(name);
      sym->create_seq = ctx_.out.next_seq++; // (orders the undefined-reference errors)
    }
    sym->extern_shared = true;
    map.emplace(sym->name, sym);
    return sym;
  }

  // Local variables. Shared variables, a kernel's parameter-bank symbol and
  // nameless locals stay internal (they never reach the output); the others
  // (string literals, math tables...) become local symbols of the output.
  void merge_local_variable(u32 i, const ElfSymbol &s) {
    // A device function's own `__shared__` variable (a local in
    // .nv_debug.shared) is laid out like a namespace-scope one: one offset
    // in every kernel that reaches the function.
    if (s.is_shared_variable() && s.shndx != SHN_UNDEF &&
        s.shndx < obj_.elf.sections.size() && in_section(s.shndx).name == ".nv_debug.shared") {
      std::string key = fmt::format("{}\x1f{}", s.name, obj_.index); // locals are per input
      OutputSymbol *sym = extern_shared_symbol(key);
      sym->extern_shared = false;
      sym->namespace_shared = true;
      sym->size = s.size;
      sym->value = s.value; // the alignment, until layout
      sym->def_order = (u64(obj_.index) << 32) | i;
      sym_map_[i] = sym;
      return;
    }
    OutputSection *sec = nullptr;
    // (The variables of a dropped copy's bank that stays an ordinary section
    // leave it to the section-symbol pass to create.)
    if (s.shndx != SHN_UNDEF && s.shndx < sec_map_.size() &&
        !(is_function_bank(in_section(s.shndx).name) &&
          lost_copy_of_unbanked_function(in_section(s.shndx).name)))
      sec = map_section(s.shndx);
    if (!sec && s.shndx != SHN_UNDEF && s.shndx < sec_map_.size() && is_dead_section(s.shndx)) {
      reserve_replaced_kernel_bank(s.shndx);
      // (-r: the locals of a lost weak kernel copy's parameter bank, its
      // `_param`, stay symbols of the kept copy's bank.)
      if (relocatable_output(ctx_) && in_section(s.shndx).name.starts_with(".nv.constant0."))
        sec = find_section(ctx_, in_section(s.shndx).name);
    }
    // (Per-function constant banks: ".nv.constant<N>.<f>"; not sm_100+'s
    // ".nv.constant.user", whose local variables are output symbols.)
    bool per_function_bank = sec && sec->kind == SectionKind::Constant &&
                             (names_per_function_bank(sec->name) ||
                              sec->name.starts_with(".nv.constant.optimizer."));
    // (-r: the variables of per-function banks and shared sections stay
    // local symbols of their sections.)
    // (-r: `.nv.ptx.const0.size` stays a local symbol, undefined, as a
    // CUDA variable worth all ones: measured.)
    // (-g without -suppress-debug-info: a kernel's own __shared__ variables
    // become local symbols; debug_link.h.)
    bool undefined_internal = !sec && s.shndx == SHN_UNDEF && s.type() == STT_OBJECT &&
                              (s.other & 3) == 1; // STV_INTERNAL
    bool kept_undefined = relocatable_output(ctx_) && undefined_internal && !s.name.empty();
    bool shared_symbol = ctx_.opts.debug && !ctx_.opts.suppress_debug_info;
    bool internal = s.name.empty() || (!sec && !kept_undefined) ||
                    (sec && !relocatable_output(ctx_) &&
                     ((sec->kind == SectionKind::Shared && !shared_symbol) || per_function_bank));
    OutputSymbol *out = nullptr;
    if (kept_undefined) {
      out = create_local(ctx_, s.name);
      out->internal_undefined_object = true;
      out->type = STT_CUDA_VARIABLE;
      out->other = s.other;
      out->size = s.size;
      out->value = ~u64{0};
    } else if (internal) {
      out = ctx_.arena.make<OutputSymbol>();
      out->name = s.name;
      out->internal_undefined_object = !sec && s.shndx == SHN_UNDEF && s.type() == STT_OBJECT &&
                                       (s.other & 3) == 1; // STV_INTERNAL
    } else {
      out = create_local(ctx_, s.name);
    }
    sym_map_[i] = out;
    if (!sec)
      return;
    define(out, s, sec, sec_off_[s.shndx]);
    if (out->type == STT_CUDA_VARIABLE && !relocatable_output(ctx_)) {
      out->type = STT_OBJECT;
      out->other &= static_cast<u8>(~0xe0);
    }
    if (sec->kind == SectionKind::Shared && (s.other & 0xe0) == STO_CUDA_SHARED) {
      out->value = s.value; // the alignment, until layout
      sec->shared_vars.push_back(out);
    }
  }

  // sm_75-90: the parameter bank of a replaced weak kernel (template
  // __global__) keeps this first copy's place, empty until the kept copy's
  // bank fills it (§15.6). The place is taken where the bank's section would
  // have been created: at its `_param` symbol (pass 2), so before the banks
  // of kernels whose `_param` comes later in the input, else at its section
  // symbol (pass 3).
  void reserve_replaced_kernel_bank(u32 shndx) {
    const ElfSection &in = in_section(shndx);
    if (!in.name.starts_with(".nv.constant0.") || ctx_.arch.is_mercury() || find_section(ctx_, in.name))
      return;
    if (auto k = defined_function(in.name.substr(14));
        k && winner_elsewhere_.count(*k) && !passed_over_copy(*k) &&
        (obj_.symbols[*k].other & STO_CUDA_ENTRY))
      create_section(ctx_, in.name, in.type, in.flags & ~u64(SHF_INFO_LINK), in.addralign, in.entsize);
  }

  // Pass 3.
  void merge_section_symbols() {
    // An input's debug sections are created in section-header order, also
    // those no section symbol names (ptxas writes none for an empty one:
    // .debug_frame, .nv_debug_info_reg_sass/_type of an input without
    // device code; testdata/src/empty_debug_sections_g).
    for (u32 i = 1; i < obj_.elf.sections.size() && i < sec_map_.size(); i++) {
      const ElfSection &in = in_section(i);
      if (classify_section(in.name, in.type) != SectionKind::Debug || sec_map_[i] ||
          is_mercury_section(in) || is_dead_section(i))
        continue;
      map_section(i);
    }
    for (u32 i = 1; i < obj_.symbols.size(); i++) {
      const ElfSymbol &s = obj_.symbols[i];
      if (s.type() != STT_SECTION || s.shndx == SHN_UNDEF || s.shndx >= sec_map_.size())
        continue;
      const ElfSection &in = in_section(s.shndx);
      SectionKind kind = classify_section(in.name, in.type);
      if (kind == SectionKind::Callgraph || kind == SectionKind::Prototype ||
          kind == SectionKind::Note)
        continue;
      if (is_dead_section(s.shndx)) {
        reserve_replaced_kernel_bank(s.shndx);
        continue;
      }
      OutputSection *sec = map_section(s.shndx);
      sym_map_[i] = sec ? sec->symbol : nullptr;
      if (sec)
        sec->input_section_symbol = true;
    }
  }

  // nvlink finalizes sm_100 code again for an sm_103 target, and there the
  // double-precision arithmetic (DMUL, DADD, DSETP, DFMA: opcodes 0x28-0x2b
  // in the low 9 bits) comes out re-encoded: scoreboarded, and longer
  // sequences for division and square root (docs/notes/mixed-arch.md). dlink
  // keeps the input code, so it refuses such a link instead of writing code
  // that differs from nvlink's and may not be valid on sm_103.
  void refuse_code_needing_reencoding(const ElfSection &text) {
    if (obj_.elf.sm() != 100 || ctx_.arch.sm != 103)
      return;
    for (size_t at = 0; at + 16 <= text.data.size(); at += 16) {
      u32 opcode = read_le<u16>(text.data.data() + at) & 0x1ff;
      if (opcode >= 0x28 && opcode <= 0x2b)
        ctx_.diag.fatal(fmt::format(
            "Input file '{}': function '{}' has double-precision code built for sm_100, which "
            "nvlink re-encodes for '{}'; dlink does not re-finalize code (compile it for sm_103)",
            obj_.name, text.name.substr(6), ctx_.arch.name()));
    }
  }

  // Pass 4.
  void merge_section_contents() {
    for (u32 i = 1; i < obj_.elf.sections.size(); i++) {
      const ElfSection &in = in_section(i);
      if (is_mercury_section(in))
        continue;
      if (classify_section(in.name, in.type) == SectionKind::Text && !is_dead_section(i))
        refuse_code_needing_reencoding(in);
      switch (classify_section(in.name, in.type)) {
      case SectionKind::ModuleInfo:
        merge_module_info(in);
        break;
      case SectionKind::FunctionInfo:
        if (!is_dead_section(i))
          merge_function_info(in);
        else if (names_discarded_function(in.name.substr(9)) && !find_section(ctx_, in.name))
          create_section(ctx_, in.name, SHT_CUDA_INFO, SHF_INFO_LINK, 4); // place kept
        break;
      case SectionKind::Reloc:
        if (!is_dead_section(i)) {
          merge_relocs(in);
        } else {
          keep_place_for_later_winner(in);
          note_dead_code_references(in);
        }
        break;
      case SectionKind::Callgraph:
        merge_callgraph(in);
        break;
      case SectionKind::Prototype:
        merge_prototypes(in);
        break;
      case SectionKind::Compat:
        merge_compat(in);
        break;
      case SectionKind::Note:
        if (in.name == ".note.nv.tkinfo")
          ctx_.out.input_tkinfo_notes.push_back(in.data);
        break;
      case SectionKind::StringTable:
      case SectionKind::SymbolTable:
        break;
      default:
        // Sections no symbol referred to (e.g. a .debug_frame without a
        // section symbol) are created when the header pass reaches them.
        if (!sec_map_[i] && in.type != SHT_NULL && !is_dead_section(i))
          map_section(i);
        break;
      }
    }
  }

  // .nv.compat: the first input's records; record 0x02 (the ISA class) is
  // the largest of all inputs; record 0x0b is the bitwise AND over the inputs
  // that contribute live code (measured on sm_100/sm_120 links and on
  // sm_100 -> sm_103, sm_120 -> sm_121 links).
  void merge_compat(const ElfSection &in) {
    std::vector<EiRecord> recs = parse_eiattrs(in.data);
    bool has_code = false;
    for (u32 i = 1; i < obj_.symbols.size(); i++)
      if (obj_.symbols[i].type() == STT_FUNC && obj_.symbols[i].shndx != SHN_UNDEF &&
          !dropped_function(i))
        has_code = true;
    OutputModel &out = ctx_.out;
    if (!out.have_compat) {
      out.compat = recs;
      out.have_compat = true;
      for (EiRecord &r : out.compat)
        if (r.attr == 0x0b && !has_code)
          r.payload = {}; // decided by the first input with code
    } else {
      for (const EiRecord &r : recs)
        for (EiRecord &o : out.compat)
          if (o.attr == r.attr && r.attr == 0x02)
            o.value = std::max(o.value, r.value);
    }
    if (!has_code)
      return;
    for (const EiRecord &r : recs) {
      if (r.attr != 0x0b || r.payload.size() < 8)
        continue;
      for (EiRecord &o : out.compat) {
        if (o.attr != 0x0b)
          continue;
        u64 v = read_le<u64>(r.payload.data());
        // Code built for an older SM of the family (sm_100 for sm_103, sm_120
        // for sm_121) contributes nothing: its record is the old SM's.
        if (obj_.elf.sm() != ctx_.arch.sm)
          v = 0;
        if (out.compat_0b_seen)
          v &= out.compat_0b;
        out.compat_0b = v;
        out.compat_0b_seen = true;
      }
    }
  }

  OutputSymbol *mapped_symbol(u32 index) const {
    if (index == 0 || index >= sym_map_.size())
      return nullptr;
    return sym_map_[index];
  }

  // Module records naming a function dead-code elimination removed.
  bool names_dead_function(const EiRecord &r) const {
    if (r.format != EIFMT_SVAL || r.payload.size() < 4)
      return false;
    switch (r.attr) {
    case EIATTR_REGCOUNT:
    case EIATTR_FRAME_SIZE:
    case EIATTR_MAX_STACK_SIZE:
    case EIATTR_MIN_STACK_SIZE:
    case EIATTR_CRS_STACK_SIZE: {
      u32 idx = r.payload_u32(0);
      return dropped_function(idx);
    }
    default:
      return false;
    }
  }

  InfoRecord convert_record(const EiRecord &r) {
    return to_output_record(r, [this](u32 index) { return mapped_symbol(index); });
  }

  void merge_module_info(const ElfSection &in) {
    OutputSection *info = find_section(ctx_, ".nv.info");
    for (const EiRecord &r : parse_eiattrs(in.data)) {
      if (names_dead_function(r))
        continue;
      info->records.push_back(convert_record(r));
    }
  }

  // The output .nv.info.<f> this input's records go to (a local function's
  // is this input's own).
  OutputSection *function_info_section(const std::string &name) {
    if (!local_function_sections_.count(".text." + name.substr(9)))
      return find_section(ctx_, name);
    auto it = own_info_sections_.find(name);
    return it == own_info_sections_.end() ? nullptr : it->second;
  }

  void merge_function_info(const ElfSection &in) {
    std::string name(in.name);
    OutputSection *info = function_info_section(name);
    if (!info)
      info = own_info_sections_[name] = create_section(ctx_, name, SHT_CUDA_INFO, SHF_INFO_LINK, 4);
    if (in.info < sec_map_.size() && sec_map_[in.info] && sec_map_[in.info]->func)
      info->func = sec_map_[in.info]->func;
    for (const EiRecord &r : parse_eiattrs(in.data)) {
      // sm_100+: the parameter-bank records are re-added after the merge,
      // in their input order.
      bool bank_record = r.attr == EIATTR_CBANK_PARAM_SIZE || r.attr == EIATTR_PARAM_CBANK ||
                         r.attr == EIATTR_SW_WAR;
      if (ctx_.arch.is_mercury() && bank_record)
        info->tail_records.push_back(convert_record(r));
      else
        info->records.push_back(convert_record(r));
    }
  }

  // A weak function whose winning copy comes from a later input: like its
  // code section, its relocation sections take their place here (the later
  // copy's relocations fill them).
  void keep_place_for_later_winner(const ElfSection &in) {
    if (in.info >= obj_.elf.sections.size())
      return;
    const ElfSection &target = in_section(in.info);
    if (classify_section(target.name, target.type) != SectionKind::Text)
      return;
    auto k = defined_function(target.name.substr(6));
    // (Only a copy that held the function: one passed over, never better
    // than the copy held when it was merged, leaves nothing; §15.6.)
    if (!k || !winner_elsewhere_.count(*k) || passed_over_copy(*k))
      return;
    // (The REL twin too, by the rule of merge_relocs: a replaced copy
    // calling a local slow-path helper, weak_helper_replaced; §15.6.)
    if (OutputSection *text = find_section(ctx_, target.name)) {
      reloc_section_for(ctx_, text, in.type == SHT_RELA);
      if (in.type == SHT_RELA && wants_rel_twin(in, read_relocs(in)))
        reloc_section_for(ctx_, text, false);
    }
  }

  // Shared variables and bound texture references a removed function refers to.
  void note_dead_code_references(const ElfSection &in) {
    // They count from unreachable functions only, and of a weak function
    // only from the copy weak resolution keeps.
    bool unreachable = false;
    if (in.info < obj_.elf.sections.size()) {
      const ElfSection &target = in_section(in.info);
      if (classify_section(target.name, target.type) == SectionKind::Text)
        if (auto k = defined_function(target.name.substr(6)))
          unreachable = !is_live_function(ctx_, obj_, *k) &&
                        (obj_.symbols[*k].bind() != STB_WEAK || is_weak_winner(obj_.symbols[*k].name));
    }
    if (!unreachable)
      return;
    for (const ElfReloc &r : read_relocs(in)) {
      if (!r.sym || r.sym >= obj_.symbols.size())
        continue;
      if (OutputSymbol *sym = mapped_symbol(r.sym); sym && sym->namespace_shared)
        sym->referenced_by_dead_code = true;
      if (references_bound_texture(r)) {
        ctx_.out.dead_code_uses_references = true;
        if (obj_.symbols[r.sym].type() != STT_CUDA_TEXTURE)
          ctx_.out.dead_code_uses_sampler_references = true;
      }
    }
  }

  bool references_constant_variable(const ElfReloc &r) const {
    if (!r.sym || r.sym >= obj_.symbols.size())
      return false;
    const ElfSymbol &s = obj_.symbols[r.sym];
    return s.type() != STT_SECTION && s.shndx != SHN_UNDEF && s.shndx < obj_.elf.sections.size() &&
           obj_.elf.sections[s.shndx].name.starts_with(".nv.constant");
  }

  bool references_bound_texture(const ElfReloc &r) const {
    return r.sym && r.sym < obj_.symbols.size() && is_bound_texture_type(obj_.symbols[r.sym].type());
  }

  // Whether nvlink also creates the REL twin of RELA section `in`.
  bool wants_rel_twin(const ElfSection &in, const std::vector<ElfReloc> &relocs) const {
    // nvlink also creates the REL twin of a RELA section when a relocation
    // without addend follows the section's first relocation (measured over
    // the golden corpus and random call graphs; the twin is dropped again if
    // it stays empty, its name stays in .shstrtab). On sm_100+ the rule runs
    // over the Mercury twin's relocations, which can hold more (one against
    // .nv.reservedSmem.cap before a shared-memory reference) and none for
    // values resolved into the capsule.
    auto plain = [](const ElfReloc &r) { return r.addend == 0; };
    std::vector<ElfReloc> merc_relocs;
    // (The user constant bank's twin has the bank's Mercury name.)
    std::string twin_name = in.name == ".rela.nv.constant3" ? std::string(".nv.merc.rela.nv.constant.user")
                                                            : ".nv.merc" + std::string(in.name);
    if (ctx_.arch.is_mercury())
      if (auto twin = obj_.elf.find_section(twin_name))
        merc_relocs = read_relocs(obj_.elf.sections[*twin]);
    const std::vector<ElfReloc> &order = merc_relocs.empty() ? relocs : merc_relocs;
    bool plain_after_first = !order.empty() && std::any_of(order.begin() + 1, order.end(), plain);
    // (sm_100+ input without Mercury relocations: also when every relocation
    // has no addend, unless it is a lone one against a bound texture
    // reference or a __constant__ variable.)
    auto no_addend = std::count_if(relocs.begin(), relocs.end(), plain);
    bool lone_resolved = relocs.size() == 1 && (references_bound_texture(relocs.front()) ||
                                                references_constant_variable(relocs.front()));
    bool all_plain = ctx_.arch.is_mercury() && merc_relocs.empty() && no_addend > 0 &&
                     static_cast<size_t>(no_addend) == relocs.size() && !lone_resolved;
    return plain_after_first || all_plain;
  }

  void merge_relocs(const ElfSection &in) {
    if (in.info >= sec_map_.size())
      ctx_.diag.fatal("section not mapped");
    OutputSection *target = sec_map_[in.info];
    if (!target)
      target = map_section(in.info);
    if (!target)
      ctx_.diag.fatal("section not mapped");
    // sm_100+: a device function's own bank comes with an empty
    // ".rela.nv.constant2.<f>" that nvlink drops (§16); its bytes are copied
    // into the kernels' banks.
    if (target->detached) {
      if (!read_relocs(in).empty())
        ctx_.diag.fatal(fmt::format("unsupported: relocations in '{}'", in.name));
      return;
    }
    bool rela = in.type == SHT_RELA;
    // sm_75-90: an empty input relocation section (ptxas writes an empty
    // ".rela.nv.constant2.<k>" for a kernel whose bank holds a jump table,
    // sm_90) creates no output section: its name is in neither string table
    // (testdata/src/empty_rela_constant2). On sm_100+ the SASS section
    // stays when its Mercury twin has entries, so it is created there.
    if (in.data.empty() && !ctx_.arch.is_mercury())
      return;
    OutputSection *out = reloc_section_for(ctx_, target, rela);
    if (target->name.starts_with(".nv.constant.optimizer.") && rela &&
        std::find(ctx_.out.optimizer_relas.begin(), ctx_.out.optimizer_relas.end(), out) ==
            ctx_.out.optimizer_relas.end())
      ctx_.out.optimizer_relas.push_back(out);
    std::vector<ElfReloc> relocs = read_relocs(in);
    if (rela && wants_rel_twin(in, relocs))
      reloc_section_for(ctx_, target, false);
    for (const ElfReloc &r : relocs) {
      // References to removed functions vanish, except the clears that
      // exist for exactly that case (R_CUDA_UNUSED_CLEAR*).
      bool known = r.sym && r.sym < obj_.symbols.size();
      bool dead_target = known && !is_live_function(ctx_, obj_, r.sym);
      // A later copy of a weak function: its debug records go, without
      // clearing (the name resolves to the first copy); its -G .debug_info
      // and .debug_loc entries keep theirs (DW_AT_low_pc/high_pc, location
      // ranges, now the kept copy's: measured with glink_3tu's twice<int>
      // and glink_nvcc's clampv<int>, with and without -g).
      if (known && !(in_section(in.info).flags & SHF_ALLOC) &&
          !keeps_weak_copy_relocs(in_section(in.info).name) && debug_copy_dropped(r.sym))
        continue;
      if (dead_target && r.type != 0x48 && r.type != 0x49)
        continue;
      if (auto d = dropped_ranges_.find(in.info); d != dropped_ranges_.end() &&
          std::any_of(d->second.begin(), d->second.end(),
                      [&](const auto &rg) { return r.offset >= rg.first && r.offset < rg.second; }))
        continue;
      auto kept_at = surviving_offset(in.info, r.offset);
      if (!kept_at)
        continue; // inside a debug-frame entry that was removed
      OutputReloc o;
      o.offset = *kept_at + sec_off_[in.info];
      o.sym = mapped_symbol(r.sym);
      o.type = r.type;
      o.addend = r.addend;
      if (const RelocDesc *desc = find_reloc(r.type);
          desc && occupies_file_space(in_section(in.info)) &&
          r.offset + reloc_field_bytes(*desc) > in_section(in.info).size)
        o.overruns_input = true;
      if (r.sym && r.sym < obj_.symbols.size() && obj_.symbols[r.sym].type() == STT_SECTION &&
          obj_.symbols[r.sym].shndx < sec_off_.size())
        o.bias = sec_off_[obj_.symbols[r.sym].shndx];
      out->relocs.push_back(o);
    }
  }

  void merge_callgraph(const ElfSection &in) {
    OutputModel &out = ctx_.out;
    const ElfSection &strtab = obj_.elf.sections.at(obj_.elf.find_section(".strtab").value_or(0));
    i64 block = 0;
    for (size_t k = 0; k + 8 <= in.data.size(); k += 8) {
      u32 a = read_le<u32>(in.data.data() + k);
      i32 b = read_le<i32>(in.data.data() + k + 4);
      if (a == 0 && b < 0) {
        block = -i64{b}; // (i64: a marker of INT_MIN must not overflow)
        continue;
      }
      switch (block) {
      case 1:
        // A weak copy replaced by a later input's keeps its edges (caller
        // the kept definition); a later copy that lost adds none (§15.6).
        if (a < obj_.symbols.size() && is_live_function(ctx_, obj_, a) &&
            (!discarded_[a] || (winner_elsewhere_.count(a) && weak_copy_held(ctx_, obj_, obj_.symbols[a])))) {
          // A kept address-taken function may call functions that did not
          // survive (dead_code.h): the edge leaves .nv.callgraph but
          // -dump-callgraph still lists it.
          if (static_cast<u32>(b) < obj_.symbols.size() && !is_live_function(ctx_, obj_, static_cast<u32>(b)))
            out.dead_call_edges.emplace(out.call_edges.size(), std::pair{obj_.index, static_cast<u32>(b)});
          out.call_edges.emplace_back(mapped_symbol(a), mapped_symbol(static_cast<u32>(b)));
        }
        break;
      case 2: {
        // Address-taken functions are listed once.
        OutputSymbol *f = mapped_symbol(a);
        if (out.address_taken_syms.insert(f).second)
          out.address_taken.emplace_back(f, string_at(strtab, static_cast<u32>(b)));
        break;
      }
      // (Indirect call sites of removed functions go: dead code and kernels
      // pruned by -kernels-used alike.)
      // A weak function's indirect call sites and their targets come only
      // from the copies that held the definition when their input was merged
      // (as its edges): a later copy that lost adds none.
      case 3:
        if (a < obj_.symbols.size() && is_live_function(ctx_, obj_, a) &&
            weak_copy_held(ctx_, obj_, obj_.symbols[a]))
          out.indirect_calls.emplace_back(mapped_symbol(a), string_at(strtab, static_cast<u32>(b)));
        break;
      case 4:
        if (a < obj_.symbols.size() && is_live_function(ctx_, obj_, a) &&
            weak_copy_held(ctx_, obj_, obj_.symbols[a]))
          out.indirect_targets.emplace_back(mapped_symbol(a), mapped_symbol(static_cast<u32>(b)));
        break;
      default:
        break;
      }
    }
  }

  void merge_prototypes(const ElfSection &in) {
    OutputModel &out = ctx_.out;
    const ElfSection &strtab = obj_.elf.sections.at(in.link < obj_.elf.sections.size()
                                                        ? obj_.elf.sections[in.link].link
                                                        : 0);
    for (size_t k = 0; k + 8 <= in.data.size(); k += 8) {
      u32 index = read_le<u32>(in.data.data() + k);
      if (index < obj_.symbols.size() && !is_live_function(ctx_, obj_, index))
        continue;
      OutputSymbol *sym = mapped_symbol(index);
      std::string_view proto = string_at(strtab, read_le<u32>(in.data.data() + k + 4));
      // Every input's prototype of a symbol must be the first one seen
      // (measured: one error per disagreeing input, naming the definer once
      // one is known, else the first input that mentioned the symbol).
      if (sym) {
        auto [first, fresh] = out.first_prototype.try_emplace(sym, proto);
        if (!fresh && first->second != proto) {
          const InputObject *named = sym->defined_in ? sym->defined_in : sym->first_referenced_in;
          ctx_.diag.error(fmt::format("Prototype doesn't match for '{}' in '{}', first defined in '{}'",
                                      sym->name, obj_.name, named ? named->name : obj_.name));
          multiple_definition_ = true;
        }
      }
      if (out.prototype_syms.insert(sym).second)
        out.prototypes.emplace_back(sym, proto);
    }
  }

  Context &ctx_;
  InputObject &obj_;
  std::set<std::string_view> local_function_sections_; // ".text.<f>" of local functions
  // Function name -> symbol index of this input's (first) definition.
  NameMap<u32> function_definitions_;
  std::map<std::string, OutputSection *> own_info_sections_;
  std::vector<OutputSection *> sec_map_;
  std::vector<u64> sec_off_;
  std::vector<OutputSymbol *> sym_map_;
  // Function definitions of this input that lost to an earlier definition
  // (weak functions defined in several inputs).
  std::vector<bool> discarded_;
  std::set<u32> later_weak_copy_;
  struct FrameRange {
    u64 start, end, new_start;
  };
  std::map<u32, std::vector<FrameRange>> frame_ranges_;
  // Weak copies that lose to a later input's (their debug records stay).
  std::set<u32> winner_elsewhere_;
  // Per input section: byte ranges of weak variables whose definition lost.
  std::map<u32, std::vector<std::pair<u64, u64>>> dropped_ranges_;

public:
  bool multiple_definition_ = false;
};

// Prototype strings go first in .strtab, in order of first appearance.
void collect_prototype_strings(Context &ctx) {
  auto &list = ctx.out.prototype_strings;
  // (An empty signature is interned too: it adds a second NUL to .strtab.)
  auto intern = [&](std::string_view s) {
    if (std::find(list.begin(), list.end(), s) == list.end())
      list.push_back(s);
  };
  // Every signature string of every input, in section order: the call
  // graph's address-taken and indirect-call blocks, then .nv.prototype;
  // even those of functions dead-code elimination removes (nvlink interns
  // them while reading the inputs).
  for (InputObject *obj : ctx.inputs) {
    for (const ElfSection &sec : obj->elf.sections) {
      bool callgraph = sec.type == SHT_CUDA_CALLGRAPH;
      if ((!callgraph && sec.type != SHT_CUDA_PROTOTYPE) || sec.link >= obj->elf.sections.size())
        continue;
      const ElfSection &strtab = obj->elf.sections[obj->elf.sections[sec.link].link];
      i64 block = 0;
      for (size_t k = 0; k + 8 <= sec.data.size(); k += 8) {
        u32 a = read_le<u32>(sec.data.data() + k);
        i32 b = read_le<i32>(sec.data.data() + k + 4);
        if (!callgraph) {
          intern(string_at(strtab, static_cast<u32>(b)));
          continue;
        }
        if (a == 0 && b < 0)
          block = -i64{b}; // (i64: a marker of INT_MIN must not overflow)
        else if (block == 2 || block == 3)
          intern(string_at(strtab, static_cast<u32>(b)));
      }
    }
  }
}


} // namespace

// Among the definitions of a weak function, nvlink keeps the one with the
// lowest EIATTR_REGCOUNT (the first on ties), whatever the link order.
void choose_weak_definitions(Context &ctx) {
  std::map<std::string_view, std::pair<u32, u32>> best; // name -> (regs, input)
  for (const InputObject *obj : ctx.inputs) {
    std::map<u32, u32> regs;
    if (const ElfSection *info = obj->elf.section_named(".nv.info"))
      for (const EiRecord &r : parse_eiattrs(info->data))
        if (r.attr == EIATTR_REGCOUNT && r.payload.size() >= 8)
          regs[r.payload_u32(0)] = r.payload_u32(1);
    for (u32 i = 1; i < obj->symbols.size(); i++) {
      const ElfSymbol &s = obj->symbols[i];
      if (s.type() != STT_FUNC || s.bind() != STB_WEAK || s.shndx == SHN_UNDEF)
        continue;
      u32 n = regs.count(i) ? regs[i] : ~0u;
      auto it = best.find(s.name);
      if (it == best.end() || n < it->second.first) {
        best[s.name] = {n, obj->index};
        ctx.out.weak_holders[s.name].push_back(obj->index);
      }
    }
  }
  for (auto &[name, choice] : best)
    ctx.out.weak_winner[name] = choice.second;
}

bool constant_bank_dedups(u64 size, u64 align) {
  // Measured with one variable of every size 1-80 bytes at alignments 1, 2,
  // 4, 8 and 16 (and 4-byte-aligned sizes up to 280, some up to 16384):
  // only these.
  switch (size) {
  case 12: case 16: case 20: case 24: case 32: case 48: case 64:
    return true;
  case 4: case 8:
    return align >= size;
  default:
    return false;
  }
}

void pack_constant_bank(Context &ctx) {
  auto &bank = ctx.out.constant_bank;
  if (!bank.section || !bank.shared)
    return;
  OutputSection *sec = bank.section;
  std::vector<u8> packed(bank.size, 0);
  for (const auto &c : bank.chunks)
    if (c.own_bytes && c.offset + c.size <= sec->data.size())
      std::copy_n(sec->data.begin() + static_cast<std::ptrdiff_t>(c.offset), c.size,
                  packed.begin() + static_cast<std::ptrdiff_t>(c.packed));
  sec->data = std::move(packed);
  sec->size = sec->data.size();
}

// sm_100+: the relocations of the line tables (.rela.debug_line,
// .rela.nv_debug_line_sass) come in offset order (measured, with the
// sequences reordered by filter_line_table; sm_75-sm_90a list them most
// recent first like every other section).
static bool line_table_relocs(const Context &ctx, const OutputSection &sec) {
  return ctx.arch.is_mercury() && sec.kind == SectionKind::Reloc && !sec.merc && sec.target &&
         (sec.target->name == ".debug_line" || sec.target->name == ".nv_debug_line_sass");
}

// `.common` variables get their space at the end of .nv.global (created
// there if no input has one), the one most recently first seen as common
// first, each
// aligned to its first occurrence's alignment (measured: section alignment
// max(section, symbol), symbol offset aligned up from the section's size).
static void allocate_common_symbols(Context &ctx) {
  for (auto it = ctx.out.common_symbols.rbegin(); it != ctx.out.common_symbols.rend(); ++it) {
    OutputSymbol *sym = *it;
    if (!sym->common_pending)
      continue;
    sym->common_pending = false;
    sym->common = false;
    OutputSection *sec = find_section(ctx, ".nv.global");
    if (!sec)
      sec = create_section(ctx, ".nv.global", SHT_CUDA_GLOBAL, SHF_WRITE | SHF_ALLOC, sym->common_align, 0);
    sec->align = std::max(sec->align, sym->common_align);
    u64 offset = align_to(sec->size, sym->common_align);
    sec->size = offset + sym->size;
    sym->section = sec;
    sym->value = offset;
  }
}

void merge_inputs(Context &ctx) {
  for (InputObject *obj : ctx.inputs) {
    try {
      validate_cubin(*obj);
    } catch (const InputError &e) {
      ctx.diag.fatal(fmt::format("Corrupt input file '{}': {}", obj->name, e.what()));
    }
  }
  // Most input sections and symbols become output ones: size the name
  // tables once instead of rehashing them as they grow.
  size_t sections = 0, symbols = 0;
  for (const InputObject *obj : ctx.inputs) {
    sections += obj->elf.sections.size();
    symbols += obj->symbols.size();
  }
  ctx.out.section_by_name.reserve(sections);
  ctx.out.global_by_name.reserve(symbols);
  create_skeleton(ctx);
  choose_weak_definitions(ctx); // (liveness needs the holders)
  if (!relocatable_output(ctx))
    find_live_functions(ctx); // (-r: every function stays)
  ctx.out.constant_bank.enabled =
      kernel_filter(ctx).mode != KernelFilter::Mode::All && !relocatable_output(ctx);
  collect_prototype_strings(ctx);
  for (InputObject *obj : ctx.inputs) {
    InputMerger merger(ctx, *obj);
    try {
      merger.run();
    } catch (const InputError &e) {
      ctx.diag.fatal(fmt::format("Corrupt input file '{}': {}", obj->name, e.what()));
    }
    // nvlink gives up after the first input whose merge reported errors.
    if (merger.multiple_definition_)
      ctx.diag.fatal("merge_elf failed");
  }
  allocate_common_symbols(ctx);
  // Relocations and per-function records are kept in nvlink's list order:
  // each new entry goes to the front.
  for (OutputSection *sec : ctx.out.sections) {
    if (line_table_relocs(ctx, *sec))
      std::stable_sort(sec->relocs.begin(), sec->relocs.end(),
                       [](const OutputReloc &a, const OutputReloc &b) { return a.offset < b.offset; });
    else
      std::reverse(sec->relocs.begin(), sec->relocs.end());
    std::reverse(sec->records.begin(), sec->records.end());
    for (InfoRecord &r : sec->tail_records) {
      r.bank_tail = true;
      sec->records.push_back(std::move(r));
    }
    sec->tail_records.clear();
  }
}

void resolve_undefined(Context &ctx) {
  // (Reported in the order the symbols were first seen.)
  std::vector<std::pair<u32, std::string>> errors;
  for (OutputSymbol *sym : ctx.out.globals) {
    if (sym->defined())
      continue;
    // (A relocatable link's output makes these references global: the
    // final link treats them the same; docs/notes/relocatable.md.)
    if (is_placeholder_name(sym->name)) {
      sym->removed = true;
      continue;
    }
    if (sym->bind == STB_WEAK || sym->name.starts_with(".nv.reservedSmem.")) {
      sym->bind = STB_GLOBAL;
      continue;
    }
    if (sym->type == STT_FUNC && is_driver_function(sym->name))
      continue;
    // Bound texture/sampler/surface references stay undefined; they get
    // header-index slots in the kernels' parameter banks (texture_slots.cpp).
    if (is_bound_texture_type(sym->type))
      continue;
    errors.emplace_back(sym->create_seq,
                        fmt::format("Undefined reference to '{}' in '{}'", sym->name,
                                    sym->first_referenced_in ? sym->first_referenced_in->name : ""));
  }
  // A namespace-scope `__shared__` array declared with a size (`extern
  // __shared__ int s[16]`) and defined nowhere is an undefined reference
  // too, unless an unsized (dynamic) declaration came first (measured).
  for (const auto &[name, decl] : ctx.out.shared_declarations)
    if (!decl.defined && decl.size)
      if (auto it = ctx.out.extern_shared_by_name.find(name); it != ctx.out.extern_shared_by_name.end())
        errors.emplace_back(it->second->create_seq,
                            fmt::format("Undefined reference to '{}' in '{}'", name, decl.first->name));
  std::stable_sort(errors.begin(), errors.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  for (auto &e : errors)
    ctx.out.undefined_errors.push_back(std::move(e.second));
}

} // namespace dlink
