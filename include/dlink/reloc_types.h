// The relocation descriptor table: one row per R_CUDA / R_MERCURY type.
//
// The rows live in src/reloc/reloc_types.def (an X-macro) and describe, for
// each type, who applies it (linker, driver, finalizer or either) and up to
// three bit-field actions: compute a value of some kind, shift it right,
// store `width` bits of it at bit `bitpos` of the 64- or 128-bit
// little-endian word at r_offset. apply_reloc_fields() is the one generic
// engine that performs those actions.
#pragma once

#include "dlink/common.h"

#include <array>
#include <optional>
#include <span>
#include <string_view>

namespace dlink {

enum class RelocHandler : u8 { None, Linker, Driver, Finalizer, Either };

// What value an action stores.
enum class RelocValue : u8 {
  None,
  Address,       // S + A
  AddressLo,     // low 32 bits of S + A
  AddressHi,     // high 32 bits of S + A
  Global,        // global address (driver)
  HeaderIndex,   // texture/sampler/surface header index
  Slot,          // binding slot
  Bank,          // constant bank number of S
  BankHi,        // bit 4 of the constant bank number
  FuncDesc,      // function descriptor
  FuncDescAddr,  // function descriptor address
  PcRel,         // PC-relative
  Unified,       // unified address
  UnifiedLo,
  UnifiedHi,
  Instruction,   // whole instruction
  Clear,         // zero the field
  Yield,         // yield opcode / predicate fix-up
};

struct RelocAction {
  u16 bitpos = 0;
  u16 width = 0;
  RelocValue value = RelocValue::None;
  u16 shift = 0;
};

struct RelocDesc {
  u32 type;
  std::string_view name; // "R_CUDA_ABS32_LO_32"
  RelocHandler handler;
  std::array<RelocAction, 3> actions;
};

constexpr u32 kMercuryRelocBase = 0x10000;

// Descriptor for an R_CUDA_* (0..0x74) or R_MERCURY_* (0x10000..) type.
const RelocDesc *find_reloc(u32 type);
std::string_view reloc_name(u32 type); // "unknown" types render as "R_CUDA_<hex>"

// Inserts `width` low bits of `value` at bit `bitpos` of the little-endian
// bit string `word` (8 or 16 bytes). Bits outside the field are kept.
void insert_bits(std::span<u8> word, u32 bitpos, u32 width, u64 value);
u64 extract_bits(std::span<const u8> word, u32 bitpos, u32 width);

// Values available when applying a relocation.
struct RelocInputs {
  u64 address = 0; // S + A
  u32 bank = 0;    // constant bank of S
  u64 header_index = 0;
  u64 slot = 0;
};

// Applies every action of `desc` to `word`. Returns false if an action needs
// a value kind the caller did not provide (e.g. a driver-only relocation).
bool apply_reloc_fields(const RelocDesc &desc, std::span<u8> word, const RelocInputs &in);

} // namespace dlink
