// The merge stage (merge.h): which debug records of a weak function's
// copies go (the copies that did not keep the definition).
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

bool InputMerger::debug_copy_dropped(u32 k) const {
  return (!winner_elsewhere_.count(k) && (discarded_[k] || later_weak_copy_.count(k))) ||
         passed_over_copy(k) || (winner_elsewhere_.count(k) && frames_not_rewritten(obj_.symbols[k].name));
}

bool InputMerger::passed_over_copy(u32 k) const {
  if (!winner_elsewhere_.count(k))
    return false;
  auto it = ctx_.out.weak_holders.find(obj_.symbols[k].name);
  return it != ctx_.out.weak_holders.end() &&
         std::find(it->second.begin(), it->second.end(), obj_.index) == it->second.end();
}

bool InputMerger::frames_not_rewritten(std::string_view fn) const {
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

const InputObject *InputMerger::input_by_index(u32 index) const {
  for (const InputObject *o : ctx_.inputs)
    if (o->index == index)
      return o;
  return nullptr;
}

std::optional<u64> InputMerger::surviving_offset(u32 i, u64 offset) const {
  return dlink::surviving_offset(frame_ranges_, i, offset);
}

std::optional<u64> surviving_offset(const std::map<u32, std::vector<InputObject::KeptRange>> &kept, u32 i,
                                    u64 offset) {
  using FrameRange = InputObject::KeptRange;
  auto it = kept.find(i);
  if (it == kept.end())
    return offset;
  // (The ranges are sorted by input offset and do not overlap: the kept
  // .debug_frame entries in section order, the line-table pieces sorted.)
  const std::vector<FrameRange> &ranges = it->second;
  auto after = std::upper_bound(ranges.begin(), ranges.end(), offset,
                                [](u64 off, const FrameRange &r) { return off < r.start; });
  if (after == ranges.begin())
    return std::nullopt;
  const FrameRange &r = *(after - 1);
  if (offset < r.end)
    return r.new_start + (offset - r.start);
  return std::nullopt;
}

} // namespace dlink
