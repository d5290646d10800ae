// The merge stage (merge.h): which output section each input section goes
// to, dead and dropped sections, and passes 3 and 4 (section symbols, section
// headers).
#include "link/input_merger.h"
#include "merge.h"

#include "dlink/demangle.h"
#include "dlink/reloc_types.h"

#include "arch_format.h"

#include "dead_code.h"
#include "elf/dwarf_frame.h"
#include "output_model.h"
#include "relocatable.h"
#include "validate.h"

#include <algorithm>

namespace dlink {

OutputSection *InputMerger::map_section(u32 i) {
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
  // (The input's name, hashed before the merge, unless renamed.)
  const size_t hash = name.data() == in.name.data() ? section_name_hash(i) : NameHash{}(name);
  OutputSection *out = local_function_section(name) ? nullptr : find_section(ctx_, name, hash);
  if (!out && arch_format(ctx_.arch).late_parameter_banks && name.starts_with(".nv.constant0.")) {
    // Kernel parameter banks created after the merge (sm_100+).
    out = new_section(ctx_, name, in.type, in.flags & ~u64(SHF_INFO_LINK), in.addralign,
                      in.entsize);
    ctx_.out.deferred_sections.push_back(out);
    ctx_.out.deferred_by_name.emplace(out->name, out);
  } else if (!out) {
    out = create_section(ctx_, name, hash, in.type, in.flags & ~u64(SHF_INFO_LINK), in.addralign,
                         in.entsize);
    if (name.starts_with(".nv.constant.optimizer."))
      ctx_.out.optimizer_banks.push_back(
          {nullptr, out, ctx_.arena.save(".nv.constant2." + std::string(name.substr(23)))});
  }
  if (relocatable_output(ctx_) && is_function_bank(in.name))
    return merge_relocatable_function_bank(out, i);
  append_data(out, i);
  if (out->kind == SectionKind::Text)
    out->info_high = in.info & 0xff000000u;
  return out;
}

std::string_view InputMerger::output_name(std::string_view name) const {
  const ArchFormat &format = arch_format(ctx_.arch);
  if (name == ".nv.constant3")
    return format.user_bank;
  // A kernel's own optimizer constants (§16): "<prefix>.<k>" until
  // finish_sections (sm_100+).
  if (!format.optimizer_bank_prefix.empty() && name.starts_with(".nv.constant2."))
    return ctx_.arena.save(std::string(format.optimizer_bank_prefix) + std::string(name.substr(13)));
  return name;
}

bool InputMerger::names_per_function_bank(std::string_view name) {
  constexpr size_t kPrefix = sizeof(".nv.constant") - 1;
  if (!name.starts_with(".nv.constant"))
    return false;
  size_t i = kPrefix;
  while (i < name.size() && name[i] >= '0' && name[i] <= '9')
    i++;
  return i > kPrefix && i < name.size() && name[i] == '.';
}

bool InputMerger::is_function_bank(std::string_view name) const {
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

bool InputMerger::lost_copy_of_unbanked_function(std::string_view name) const {
  auto k = defined_function(name.substr(name.find('.', 12) + 1));
  return k && discarded_[*k] && !winner_elsewhere_.count(*k) &&
         !ctx_.out.banked_functions.count(name);
}

std::optional<u32> InputMerger::defined_function(std::string_view fn) const {
  const NameMap<u32> &defined = obj_.merge_prep.function_definitions;
  auto it = defined.find(fn);
  if (it == defined.end())
    return std::nullopt;
  return it->second;
}

void InputMerger::append_data(OutputSection *out, u32 i) {
  const ElfSection &in = in_section(i);
  out->flags |= in.flags & SHF_INFO_LINK;
  u64 align = std::max<u64>(in.addralign, 1);
  out->align = std::max(out->align, align);
  // (-r: .nv_debug.shared, whose variables' values are alignments, is the
  // sum of its inputs' sizes, unaligned, less the later copies of WEAK
  // variables; after the first part, only an input's variables' bytes
  // count, not the padding ptxas gives a section (its values are
  // alignments); measured with namespace-scope and template
  // kernels' __shared__ arrays: 0x3 + 0x20 -> 0x23, weak_shared_template; a
  // variable aligned to 64: a first part of 0x80 (0x40 bytes at 0x40)
  // stays 0x80, a later one of 0x50 (0x10 bytes at 0x40) adds 0x10:
  // relocatable_second_stage_padded_part, relocatable_debug_shared_padding.)
  const bool debug_shared_sum = relocatable_output(ctx_) && out->kind == SectionKind::DebugShared;
  u64 offset = debug_shared_sum ? out->size : align_to(out->size, align);
  if (out->has_file_data() && out->kind == SectionKind::Text) {
    backlog_.copies.push_back({out, offset, in.data}); // (copied by run_merge_backlog)
    out->size = offset + in.data.size();
  } else if (out->has_file_data()) {
    out->data.resize(offset, 0);
    std::optional<std::vector<u8>> edited;
    if (out->kind == SectionKind::Debug)
      edited = mercury_debug_edit(i, offset); // (sm_100+; nothing otherwise)
    if (edited)
      out->data.insert(out->data.end(), edited->begin(), edited->end());
    else
      out->data.insert(out->data.end(), in.data.begin(), in.data.end());
    out->size = out->data.size();
  } else {
    out->size = offset + (debug_shared_sum && offset ? std::min(variable_bytes(i), in.size) : in.size) -
                (debug_shared_sum ? dropped_debug_shared_bytes(i) : 0);
  }
  if (ctx_.out.constant_bank.enabled && in.name == ".nv.constant3" && out->has_file_data())
    note_constant_chunk(out, in, offset, align);
  sec_map_[i] = out;
  sec_off_[i] = offset;
}

bool InputMerger::is_dead_section(u32 i) const {
  const ElfSection &in = in_section(i);
  if (kind_of(i) == SectionKind::Reloc)
    return in.info < obj_.elf.sections.size() && in.info != i && is_dead_section(in.info);
  const std::vector<u32> &named = obj_.merge_prep.named_function;
  u32 k = i < named.size() ? named[i] : 0;
  if (!k)
    return false;
  if (in.name.starts_with(".nv.constant2.")) {
    // A function's own OCG bank goes with a function dead-code elimination
    // removed (a kernel host code never launches); a lost weak copy's bank
    // still takes part in the bank merge (-r: unless passed over before
    // the kept one).
    return !is_live_function(ctx_, obj_, k) ||
           (relocatable_output(ctx_) && passed_over_before_kept(in.name.substr(14)));
  }
  return dropped_function(k);
}

u64 InputMerger::dropped_debug_shared_bytes(u32 i, bool *all) const {
  u64 bytes = 0;
  size_t dropped = 0, others = 0;
  for (const ElfSymbol &s : obj_.symbols) {
    if (s.shndx != i || s.type() == STT_SECTION)
      continue;
    const OutputSymbol *g = s.bind() == STB_WEAK ? find_global(ctx_, s.name) : nullptr;
    if (g && g->section && g->defined_in != &obj_) {
      bytes += s.size;
      dropped++;
    } else {
      others++;
    }
  }
  if (all)
    *all = dropped > 0 && others == 0;
  return std::min(bytes, in_section(i).size);
}

u64 InputMerger::variable_bytes(u32 i) const {
  u64 bytes = 0;
  for (const ElfSymbol &s : obj_.symbols)
    if (s.shndx == i && s.type() != STT_SECTION)
      bytes += s.size;
  return bytes;
}

bool InputMerger::holds_only_dropped_variables(u32 i) const {
  if (relocatable_output(ctx_) && in_section(i).name == ".nv_debug.shared") {
    bool all = false;
    dropped_debug_shared_bytes(i, &all);
    return all;
  }
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

bool InputMerger::names_discarded_function(std::string_view fn) const {
  auto k = defined_function(fn);
  return k && discarded_[*k] && is_live_function(ctx_, obj_, *k);
}

bool InputMerger::is_weak_winner(std::string_view name) const {
  const u32 *winner = ctx_.out.weak_winner.find(name);
  return !winner || *winner == obj_.index;
}

bool InputMerger::dropped_function(u32 i) const {
  return i < obj_.symbols.size() && (!is_live_function(ctx_, obj_, i) || discarded_[i]);
}

std::optional<u32> InputMerger::input_section_named(std::string_view name) const {
  return obj_.elf.find_section(name);
}

void InputMerger::reserve_replaced_kernel_bank(u32 shndx) {
  const ElfSection &in = in_section(shndx);
  if (!in.name.starts_with(".nv.constant0.") || arch_format(ctx_.arch).late_parameter_banks ||
      find_section(ctx_, in.name))
    return;
  if (auto k = defined_function(in.name.substr(14));
      k && winner_elsewhere_.count(*k) && !passed_over_copy(*k) &&
      (obj_.symbols[*k].other & STO_CUDA_ENTRY))
    create_section(ctx_, in.name, in.type, in.flags & ~u64(SHF_INFO_LINK), in.addralign, in.entsize);
}

void InputMerger::merge_section_symbols() {
  // An input's debug sections are created in section-header order, also
  // those no section symbol names (ptxas writes none for an empty one:
  // .debug_frame, .nv_debug_info_reg_sass/_type of an input without
  // device code; testdata/src/empty_debug_sections_g).
  for (u32 i = 1; i < obj_.elf.sections.size() && i < sec_map_.size(); i++) {
    const ElfSection &in = in_section(i);
    if (kind_of(i) != SectionKind::Debug || sec_map_[i] ||
        is_mercury_section(in) || is_dead_section(i))
      continue;
    map_section(i);
  }
  for (u32 i = 1; i < obj_.symbols.size(); i++) {
    const ElfSymbol &s = obj_.symbols[i];
    if (s.type() != STT_SECTION || s.shndx == SHN_UNDEF || s.shndx >= sec_map_.size())
      continue;
    SectionKind kind = kind_of(s.shndx);
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

void InputMerger::refuse_code_needing_reencoding(const ElfSection &text) {
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

void InputMerger::note_unified_entries(u32 i) {
  const ElfSection &in = in_section(i);
  OutputSection *out = map_section(i);
  if (!out)
    return;
  for (u64 at = 0; at + kUnifiedEntrySize <= in.data.size(); at += kUnifiedEntrySize) {
    u32 sym = read_le<u32>(in.data.data() + at);
    u32 kind = read_le<u32>(in.data.data() + at + 4);
    // (The symbol index was validated: src/validate.cpp.)
    if ((kind != 1 && kind != 7) || sym >= sym_map_.size() || !sym_map_[sym])
      ctx_.diag.fatal(fmt::format("-r (relocatable link) of '{}': an entry of '{}' in a form not measured is not "
                                  "supported by dlink yet",
                                  obj_.name, in.name));
    ctx_.out.unified_entries.push_back({out, sec_off_[i] + at, sym_map_[sym]});
  }
}

void InputMerger::merge_section_contents() {
  for (u32 i = 1; i < obj_.elf.sections.size(); i++) {
    const ElfSection &in = in_section(i);
    if (is_mercury_section(in))
      continue;
    // A --preserve-relocs output's lists of the relocations its link
    // resolved are not merged: this link lists its own (measured at sm_90
    // with -r, -r --preserve-relocs and --preserve-relocs of such an input).
    if (in.type == SHT_CUDA_RESOLVED_RELA)
      continue;
    if (kind_of(i) == SectionKind::Text && !is_dead_section(i))
      refuse_code_needing_reencoding(in);
    if ((in.type == SHT_CUDA_UFT_ENTRY || in.type == SHT_CUDA_UDT_ENTRY) && relocatable_output(ctx_)) {
      note_unified_entries(i);
      continue;
    }
    switch (kind_of(i)) {
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
        ctx_.out.input_tkinfo_notes.push_back(ctx_.arena.copy(in.data)); // (not a view of the input)
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

} // namespace dlink
