// GPU architecture names as nvlink's -arch takes them.
#pragma once

#include "dlink/common.h"

#include <optional>
#include <string>
#include <string_view>

namespace dlink {

struct Arch {
  enum class Kind { Sm, Compute, Lto };
  enum class Variant { None, Specific /* a */, Family /* f */ };
  Kind kind = Kind::Sm;
  u32 sm = 0; // 75, 80, ..., 121
  Variant variant = Variant::None;

  // "sm_90a", "compute_100f", "lto_75".
  std::string name() const;
  // The sm_ name with the variant: "sm_90a" for every kind.
  std::string sm_name() const;
  // sm_100 and newer carry capsule-Mercury sections.
  bool is_mercury() const { return sm >= 100; }
};

// The family an `f` (family-portable) entry of this SM serves: sm_103 code is
// sm_100's family, sm_121 is sm_120's; every other SM is its own.
inline u32 family_of(u32 sm) {
  switch (sm) {
  case 103:
    return 100;
  case 121:
    return 120;
  default:
    return sm;
  }
}

// Parses one of the names nvlink 13.0 accepts for -arch; nullopt otherwise.
std::optional<Arch> parse_arch(std::string_view name);

} // namespace dlink
