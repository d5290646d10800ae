// Per-target facts of the output format that stages shared by every target
// consult (the arch table's output part). The sm_100+ family's own stage,
// with everything only it reads, is src/mercury/.
#pragma once

#include "dlink/arch.h"

#include <string_view>

namespace dlink {

struct ArchFormat {
  // The output name of the merged user constant bank (.nv.constant3).
  std::string_view user_bank = ".nv.constant3";
  // The working name of a kernel's optimizer-constant bank
  // (.nv.constant2.<k>) from the merge to finish_sections: "<prefix>.<k>"
  // (docs/notes/semantics-findings.md §16); empty: the bank keeps its name.
  std::string_view optimizer_bank_prefix;
  // Kernel parameter banks (.nv.constant0.<k>) are created after the merge,
  // once the globals are fixed, not when their first input is merged.
  bool late_parameter_banks = false;
};

inline const ArchFormat &arch_format(const Arch &arch) {
  static constexpr ArchFormat kBefore100{};
  static constexpr ArchFormat kFrom100{".nv.constant.user", ".nv.constant.optimizer", true};
  return arch.sm >= 100 ? kFrom100 : kBefore100;
}

} // namespace dlink
