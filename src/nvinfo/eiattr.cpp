// EIATTR records (eiattr.h): names, parsing, encoding and readable rendering.
//
// The name table is nvlink 13.0.88's own (formats.md §5.2); codes it does not
// know render as "EIATTR_0x61". parse_eiattrs() checks every header and SVAL
// size against the section bytes, so truncated or corrupt sections raise
// InputError instead of reading past the end. The value of NVAL/BVAL/HVAL
// records is kept as the raw u16 after the code, so parse + encode is an
// exact round trip. format_eiattr_value() knows the payload layouts of
// formats.md §5.3 and falls back to hex words for everything else.
#include "dlink/eiattr.h"

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <iterator>
#include <string>

namespace dlink {

namespace {

constexpr EiattrInfo kEiattrs[] = {
#define EIATTR(code, name, layout, symbols) {code, #name, EiLayout::layout, EiSymbols::symbols},
#include "dlink/eiattr.def"
#undef EIATTR
};
// (Rows are in code order, without gaps: a code indexes its row.)
constexpr bool rows_in_code_order() {
  for (size_t i = 0; i < std::size(kEiattrs); i++)
    if (kEiattrs[i].code != i)
      return false;
  return true;
}
static_assert(rows_in_code_order(), "eiattr.def rows must be in code order without gaps");

// In the order the names appear in nvlink; see eicompat_name().
constexpr std::array<std::string_view, 11> kEicompatNames = {
    "EICOMPAT_ATTR_ERROR",
    "EICOMPAT_ATTR_PAD",
    "EICOMPAT_ATTR_ISA_CLASS",
    "EICOMPAT_ATTR_INST_TENSORMAP_V1",
    "EICOMPAT_ATTR_INST_TCGEN05_MMA_DEPRECATED",
    "EICOMPAT_ATTR_INST_TCGEN05_MMA",
    "EICOMPAT_ATTR_ENABLE_OPPORTUNISTIC_FINALIZATION",
    "EICOMPAT_ATTR_MERCURY_ISA_MAJOR_MINOR_VERSION",
    "EICOMPAT_ATTR_MERCURY_ISA_PATCH_VERSION",
    "EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET",
    "EICOMPAT_ATTR_CAN_FASTPATH_FINALIZE",
};

// "PREFIX0x61" names for unknown codes, built once.
std::array<std::string, 256> make_hex_names(std::string_view prefix) {
  std::array<std::string, 256> out;
  for (size_t i = 0; i < out.size(); i++)
    out[i] = fmt::format("{}0x{:02x}", prefix, i);
  return out;
}

// Hex words of a payload; a trailing partial word is shown byte-wise.
std::string hex_words(std::span<const u8> p) {
  std::string out;
  size_t i = 0;
  for (; i + 4 <= p.size(); i += 4)
    out += fmt::format("{}0x{:x}", out.empty() ? "" : " ", read_le<u32>(&p[i]));
  for (; i < p.size(); i++)
    out += fmt::format("{}{:02x}", out.empty() ? "" : " ", p[i]);
  return out.empty() ? "(empty)" : out;
}

std::string sym_ref(u32 index, const SymbolNamer &sym_name) {
  std::string name = sym_name ? sym_name(index) : std::string();
  return name.empty() ? fmt::format("{}", index) : fmt::format("{} ({})", index, name);
}

EiLayout layout_of(u8 attr) {
  const EiattrInfo *info = eiattr_info(attr);
  return info ? info->layout : EiLayout::Words;
}

std::string format_sval(const EiRecord &rec, const SymbolNamer &sym_name) {
  auto p = rec.payload;
  size_t n = p.size();
  auto u32_at = [&](size_t off) { return read_le<u32>(&p[off]); };
  auto u16_at = [&](size_t off) { return read_le<u16>(&p[off]); };
  switch (layout_of(rec.attr)) {
  case EiLayout::SymValue:
    if (n != 8)
      break;
    return fmt::format("sym {} {} {}", sym_ref(u32_at(0), sym_name),
                       rec.attr == EIATTR_REGCOUNT ? "regs" : "bytes", u32_at(4));
  case EiLayout::SymList: {
    if (n % 4)
      break;
    std::string out = "syms";
    for (size_t i = 0; i < n; i += 4)
      out += fmt::format("{} {}", i ? "," : "", sym_ref(u32_at(i), sym_name));
    return out;
  }
  case EiLayout::Xyz:
    if (n != 12)
      break;
    return fmt::format("x {} y {} z {}", u32_at(0), u32_at(4), u32_at(8));
  case EiLayout::ParamCbank:
    if (n != 8)
      break;
    return fmt::format("sym {} offset 0x{:x} size 0x{:x}", sym_ref(u32_at(0), sym_name),
                       u16_at(4), u16_at(6));
  case EiLayout::KparamInfo: {
    if (n != 12)
      break;
    u32 word = u32_at(8);
    return fmt::format("index {} ordinal {} offset 0x{:x} size {} space 0x{:x} flags 0x{:03x}",
                       u32_at(0), u16_at(4), u16_at(6), word >> 18, (word >> 12) & 0x1f,
                       word & 0xfff);
  }
  case EiLayout::SamplerInit:
    if (n != 8)
      break;
    return fmt::format("sym {} init 0x{:08x}", sym_ref(u32_at(0), sym_name), u32_at(4));
  case EiLayout::OffsetPairs: {
    if (n % 8)
      break;
    std::string out;
    for (size_t i = 0; i < n; i += 8)
      out += fmt::format("{}(0x{:x}, 0x{:x})", i ? " " : "", u32_at(i), u32_at(i + 4));
    return out.empty() ? "(empty)" : out;
  }
  case EiLayout::Offsets: {
    if (n % 4)
      break;
    std::string out = "offsets";
    for (size_t i = 0; i < n; i += 4)
      out += fmt::format(" 0x{:x}", u32_at(i));
    return n ? out : "(empty)";
  }
  case EiLayout::Opaque:
  case EiLayout::Words:
    break;
  }
  return hex_words(p);
}

} // namespace

const EiattrInfo *eiattr_info(u8 attr) {
  return attr < std::size(kEiattrs) ? &kEiattrs[attr] : nullptr;
}

std::string_view eiattr_name(u8 attr) {
  if (const EiattrInfo *info = eiattr_info(attr))
    return info->name;
  static const std::array<std::string, 256> names = make_hex_names("EIATTR_");
  return names[attr];
}

std::string_view eicompat_name(u8 attr) {
  if (attr < kEicompatNames.size())
    return kEicompatNames[attr];
  static const std::array<std::string, 256> names = make_hex_names("EICOMPAT_");
  return names[attr];
}

std::vector<EiRecord> parse_eiattrs(std::span<const u8> bytes) {
  std::vector<EiRecord> out;
  size_t pos = 0;
  while (pos < bytes.size()) {
    if (bytes.size() - pos < 4)
      throw InputError(fmt::format("truncated EIATTR record at offset 0x{:x}", pos));
    EiRecord rec;
    rec.format = bytes[pos];
    rec.attr = bytes[pos + 1];
    rec.value = read_le<u16>(&bytes[pos + 2]);
    if (rec.format < EIFMT_NVAL || rec.format > EIFMT_SVAL)
      throw InputError(
          fmt::format("bad EIATTR format {} at offset 0x{:x}", rec.format, pos));
    pos += 4;
    if (rec.format == EIFMT_SVAL) {
      if (rec.value > bytes.size() - pos)
        throw InputError(fmt::format("{} payload of {} bytes extends past the section",
                                     eiattr_name(rec.attr), rec.value));
      rec.payload = bytes.subspan(pos, rec.value);
      pos += rec.value;
    }
    out.push_back(rec);
  }
  return out;
}

size_t encode_eiattr(u8 *out, u8 format, u8 attr, u16 value, std::span<const u8> payload) {
  out[0] = format;
  out[1] = attr;
  bool sval = format == EIFMT_SVAL;
  write_le<u16>(out + 2, sval ? static_cast<u16>(payload.size()) : value);
  if (!sval)
    return 4;
  if (!payload.empty())
    std::memcpy(out + 4, payload.data(), payload.size());
  return 4 + payload.size();
}

std::span<const u8> encode_eiattrs(Arena &arena, const std::vector<EiRecord> &records) {
  size_t total = 0;
  for (const auto &rec : records) {
    if (rec.format == EIFMT_SVAL && rec.payload.size() > 0xffff)
      throw InputError(fmt::format("{} payload too large", eiattr_name(rec.attr)));
    total += rec.encoded_size();
  }
  auto out = arena.alloc(total);
  size_t pos = 0;
  for (const auto &rec : records)
    pos += encode_eiattr(&out[pos], rec.format, rec.attr, rec.value, rec.payload);
  return out;
}

std::string format_eiattr_value(const EiRecord &rec, const SymbolNamer &sym_name) {
  switch (rec.format) {
  case EIFMT_NVAL:
    return rec.value ? fmt::format("(value 0x{:x})", rec.value) : std::string();
  case EIFMT_BVAL:
    return fmt::format("{}", rec.value & 0xff) +
           (rec.value >> 8 ? fmt::format(" (pad 0x{:x})", rec.value >> 8) : std::string());
  case EIFMT_HVAL:
    if (rec.attr == EIATTR_MERCURY_ISA_VERSION)
      return fmt::format("0x{:04x} ({}.{})", rec.value, rec.value >> 8, rec.value & 0xff);
    return fmt::format("0x{:x} ({})", rec.value, rec.value);
  case EIFMT_SVAL:
    return format_sval(rec, sym_name);
  default:
    return fmt::format("(format {})", rec.format);
  }
}

std::string format_eicompat_value(const EiRecord &rec) {
  switch (rec.format) {
  case EIFMT_NVAL:
    return rec.value ? fmt::format("(value 0x{:x})", rec.value) : std::string();
  case EIFMT_BVAL:
    return fmt::format("{}", rec.value & 0xff);
  case EIFMT_HVAL:
    return fmt::format("0x{:04x}", rec.value);
  case EIFMT_SVAL:
    return hex_words(rec.payload);
  default:
    return fmt::format("(format {})", rec.format);
  }
}

} // namespace dlink
