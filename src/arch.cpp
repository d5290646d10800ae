// Parsing of -arch names (arch.h).
#include "dlink/arch.h"

#include <array>
#include <charconv>

namespace dlink {

namespace {
// Every SM number nvlink 13.0.88 lists for -arch, with the variants allowed.
struct KnownSm {
  u32 sm;
  bool a;
  bool f;
};
constexpr std::array<KnownSm, 12> kKnown{{{75, false, false},
                                          {80, false, false},
                                          {86, false, false},
                                          {87, false, false},
                                          {88, false, false},
                                          {89, false, false},
                                          {90, true, false},
                                          {100, true, true},
                                          {103, true, true},
                                          {110, true, true},
                                          {120, true, true},
                                          {121, true, true}}};
} // namespace

std::string Arch::name() const {
  const char *prefix = kind == Kind::Sm ? "sm_" : kind == Kind::Compute ? "compute_" : "lto_";
  std::string s = prefix + std::to_string(sm);
  if (variant == Variant::Specific)
    s += 'a';
  else if (variant == Variant::Family)
    s += 'f';
  return s;
}

std::string Arch::sm_name() const {
  Arch a = *this;
  a.kind = Kind::Sm;
  return a.name();
}

std::optional<Arch> parse_arch(std::string_view name) {
  Arch arch;
  std::string_view rest;
  if (name.starts_with("sm_")) {
    arch.kind = Arch::Kind::Sm;
    rest = name.substr(3);
  } else if (name.starts_with("compute_")) {
    arch.kind = Arch::Kind::Compute;
    rest = name.substr(8);
  } else if (name.starts_with("lto_")) {
    arch.kind = Arch::Kind::Lto;
    rest = name.substr(4);
  } else {
    return std::nullopt;
  }
  if (!rest.empty() && (rest.back() == 'a' || rest.back() == 'f')) {
    arch.variant = rest.back() == 'a' ? Arch::Variant::Specific : Arch::Variant::Family;
    rest.remove_suffix(1);
  }
  if (rest.empty() || rest.size() > 3 || rest[0] == '0')
    return std::nullopt;
  auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), arch.sm);
  if (ec != std::errc() || ptr != rest.data() + rest.size())
    return std::nullopt;
  for (const KnownSm &k : kKnown) {
    if (k.sm != arch.sm)
      continue;
    if (arch.variant == Arch::Variant::Specific && !k.a)
      return std::nullopt;
    if (arch.variant == Arch::Variant::Family && !k.f)
      return std::nullopt;
    return arch;
  }
  return std::nullopt;
}

} // namespace dlink
