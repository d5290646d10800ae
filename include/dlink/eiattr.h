// EIATTR records of .nv.info / .nv.info.<function> / .nv.compat sections.
//
// A record is a one-byte format, a one-byte attribute code and a payload:
// NVAL (no value, 4 bytes in all), BVAL (one byte + pad), HVAL (u16), or
// SVAL (u16 size followed by `size` bytes). Records are packed back to back.
#pragma once

#include "dlink/arena.h"
#include "dlink/common.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace dlink {

enum EiFormat : u8 { EIFMT_NVAL = 1, EIFMT_BVAL = 2, EIFMT_HVAL = 3, EIFMT_SVAL = 4 };

// Attribute codes of nvlink 13.0.88 (formats.md §5.2): eiattr.def.
enum EiAttr : u8 {
#define EIATTR(code, name, layout, symbols) name = code,
#include "dlink/eiattr.def"
#undef EIATTR
};

// How an SVAL payload reads (for dumps).
enum class EiLayout : u8 {
  Words,        // u32 list, decimal-ish values
  Offsets,      // u32 code offsets, hex
  SymList,      // u32 symbol indices
  SymValue,     // u32 sym, u32 value
  Xyz,          // u32 x, y, z
  ParamCbank,   // u32 sym, u16 offset, u16 size
  KparamInfo,   // u32 index, u16 ordinal, u16 offset, u32 flags/size word
  OffsetPairs,  // (u32 offset, u32 value) pairs
  SamplerInit,  // u32 sym, u32 init word
  Opaque,       // raw hex
};

// Which u32 words of an SVAL payload are symbol indices.
enum class EiSymbols : u8 { None, First, All };

// One row of eiattr.def.
struct EiattrInfo {
  u8 code;
  std::string_view name;
  EiLayout layout;
  EiSymbols symbols;
};

// The row of `attr`, or null for codes nvlink 13.0 does not know.
const EiattrInfo *eiattr_info(u8 attr);
// The symbol fields of `attr` (None for unknown codes).
inline EiSymbols eiattr_symbols(u8 attr) {
  const EiattrInfo *info = eiattr_info(attr);
  return info ? info->symbols : EiSymbols::None;
}

struct EiRecord {
  u8 format = 0;
  u8 attr = 0;
  // HVAL value; BVAL value (the high byte is the pad byte, always 0 in real
  // files; kept so records round-trip exactly); NVAL: the two (zero) bytes
  // after the code; SVAL: the size, equal to payload.size().
  u16 value = 0;
  std::span<const u8> payload; // SVAL bytes

  u32 payload_u32(size_t index) const { return read_le<u32>(payload.data() + 4 * index); }
  size_t encoded_size() const { return 4 + (format == EIFMT_SVAL ? payload.size() : 0); }
};

// "EIATTR_REGCOUNT", or "EIATTR_0x61" for codes nvlink 13.0 does not know.
std::string_view eiattr_name(u8 attr);

// Decodes packed records; malformed data throws InputError.
std::vector<EiRecord> parse_eiattrs(std::span<const u8> bytes);
// The one record encoder: writes the 4-byte header (format, code, value or,
// for SVAL, the payload size) and the SVAL payload at `out`, which has room
// for 4 + payload.size() bytes (payload.size() <= 0xffff). Returns the bytes
// written.
size_t encode_eiattr(u8 *out, u8 format, u8 attr, u16 value, std::span<const u8> payload);
// Encodes records back to back. Payload bytes are copied.
std::span<const u8> encode_eiattrs(Arena &arena, const std::vector<EiRecord> &records);

// Names of `.nv.compat` record codes ("EICOMPAT_ATTR_ISA_CLASS"), or
// "EICOMPAT_0x0b" where unknown. The code-to-name mapping follows the order
// of the names in the nvlink binary and is unverified beyond 0x07 and 0x09.
std::string_view eicompat_name(u8 attr);

// Returns the display name of symbol `index` (used by format_eiattr_value).
using SymbolNamer = std::function<std::string(u32 index)>;

// Renders a record's value in a readable, decoded form for dumps, e.g.
// REGCOUNT "sym 22 (_Z5kmainPii) regs 24", EXTERNS "syms 5 (vprintf), 7 (f)",
// EXIT_INSTR_OFFSETS "0x70 0x1a0". Unknown or malformed payloads are shown
// as hex words. Never throws on any payload.
std::string format_eiattr_value(const EiRecord &rec, const SymbolNamer &sym_name);
// The same for a `.nv.compat` record.
std::string format_eicompat_value(const EiRecord &rec);

} // namespace dlink
