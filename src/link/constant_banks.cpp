// The merge stage (merge.h): constant banks: per-function banks detached
// from the kernels' banks, and the packed .nv.constant3 under kernel pruning.
#include "link/input_merger.h"
#include "merge.h"

#include "dlink/demangle.h"
#include "dlink/reloc_types.h"

#include "dead_code.h"
#include "elf/dwarf_frame.h"
#include "output_model.h"
#include "relocatable.h"
#include "validate.h"

#include <algorithm>

namespace dlink {

OutputSection *InputMerger::detach_function_bank(u32 i) {
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

// -r (measured on sm_75, sm_90, sm_100 and sm_120 with a weak template
// holding a switch table in two to six inputs whose copies differ in
// registers; relocatable_weak_banks, weak_later_banks): the copies that held
// the function in turn, the first definer and each copy that replaced it,
// share the first one's place in the merged bank, which holds the kept
// copy's bytes, and their variables keep their own offsets there; a copy
// passed over before the kept one leaves nothing (is_dead_section); one
// after it is appended as it is. (sm_100+ rewrites the other copies' jump
// tables and lists every copy's Mercury relocations: mercury.cpp,
// place_passed_over_bank_copies.)
OutputSection *InputMerger::merge_relocatable_function_bank(OutputSection *out, u32 i) {
  using Role = OutputModel::BankPart::Role;
  const ElfSection &in = in_section(i);
  std::string_view fn = in.name.substr(in.name.find('.', 12) + 1);
  auto k = defined_function(fn);
  const std::vector<u32> *holders = nullptr;
  if (k && obj_.symbols[*k].bind() == STB_WEAK)
    if (auto it = ctx_.out.weak_holders.find(obj_.symbols[*k].name); it != ctx_.out.weak_holders.end())
      holders = &it->second;
  if (!holders) {
    append_data(out, i);
    return out;
  }
  bool held = std::find(holders->begin(), holders->end(), obj_.index) != holders->end();
  Role role = holders->back() == obj_.index ? Role::Kept : held ? Role::Held : Role::Appended;
  OutputModel::RelocatableBank *bank = ctx_.out.relocatable_bank(out);
  if (!held || holders->front() == obj_.index) {
    append_data(out, i);
    if (!bank)
      bank = &ctx_.out.relocatable_banks.emplace_back(OutputModel::RelocatableBank{out, fn, {}});
    bank->parts.push_back({&obj_, sec_off_[i], role});
    return out;
  }
  // A later holder: the first definer's place.
  const InputObject *first = input_by_index(holders->front());
  const ElfSection *first_bank = first ? first->elf.section_named(in.name) : nullptr;
  if (!bank || bank->parts.front().input != first || !first_bank || first_bank->data.size() != in.data.size())
    ctx_.diag.fatal(fmt::format("-r (relocatable link) of '{}': the weak function '{}' with a constant bank of "
                                "another size than its first definition's is not supported by dlink yet",
                                obj_.name, fn));
  u64 place = bank->parts.front().offset;
  out->flags |= in.flags & SHF_INFO_LINK;
  out->align = std::max<u64>(out->align, std::max<u64>(in.addralign, 1));
  if (role == Role::Kept) // (its bytes)
    std::copy(in.data.begin(), in.data.end(), out->data.begin() + static_cast<std::ptrdiff_t>(place));
  sec_map_[i] = out;
  sec_off_[i] = place;
  bank->parts.push_back({&obj_, place, role});
  return out;
}

bool InputMerger::passed_over_before_kept(std::string_view fn) const {
  auto k = defined_function(fn);
  return k && obj_.symbols[*k].bind() == STB_WEAK &&
         ctx_.out.passed_over_before_kept(obj_.symbols[*k].name, obj_.index);
}

void InputMerger::note_constant_chunk(OutputSection *out, const ElfSection &in, u64 offset, u64 align) {
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
    if (dedups) {
      ctx_.out.null_symbol_value = c.packed;
      bank.sets_null_symbol = true;
    }
  }
  bank.chunks.push_back(c);
}

bool constant_bank_dedups(u64 size, u64 align) {
  // Measured with one variable of every size 1-80 bytes at alignments 1, 2,
  // 4, 8 and 16 (and 4-byte-aligned sizes up to 280, some up to 16384; 12,
  // 16, 24, 32 and 64 at 32 too): only these.
  switch (size) {
  case 12: case 16: case 20: case 24: case 32: case 48: case 64:
    return true;
  case 4: case 8:
    return align == size; // (4 at 8 or 16, 8 at 16: no; measured 2026-11-27)
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

} // namespace dlink
