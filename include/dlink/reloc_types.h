// The relocation descriptor table: one row per R_CUDA / R_MERCURY type.
//
// The rows live in src/reloc/reloc_types.def (an X-macro) and describe, for
// each type, who applies it (linker, driver, finalizer or either) and up to
// three bit-field actions: compute a value of some kind, shift it right,
// store `width` bits of it at bit `bitpos` of the 64- or 128-bit
// little-endian word at r_offset. apply_reloc_fields() is the one generic
// engine that performs those actions.
//
// What nvlink 13.0.88 actually writes for each type it resolves, and when it
// resolves rather than keeps a relocation, was measured against the oracle;
// docs/notes/relocations.md has the findings and the commands to re-check.
#pragma once

#include "dlink/common.h"

#include <array>
#include <optional>
#include <span>
#include <string_view>

namespace dlink {

enum class RelocHandler : u8 { None, Linker, Driver, Finalizer, Either };

// What value an action stores. Each kind has an intrinsic right shift
// (reloc_value_scale()): the quantity it starts from is divided by 2^scale
// before the action's own shift is applied.
enum class RelocValue : u8 {
  None,
  Address,       // S + A
  AddressLo,     // low 32 bits of S + A
  AddressHi,     // high 32 bits of S + A (scale 32)
  Global,        // global address (driver)
  HeaderIndex,   // texture/sampler/surface header index
  Slot,          // binding slot (slot of S plus A; measured: plain A for a non-texture S)
  Bank,          // constant bank number of S
  BankHi,        // bit 4 of the constant bank number (scale 4)
  FuncDesc,      // function descriptor
  FuncDescAddr,  // function descriptor address
  PcRel,         // PC-relative
  Unified,       // unified address (nvlink rewrites it to the plain address type)
  UnifiedLo,
  UnifiedHi,     // scale 32
  Instruction,   // whole instruction
  Clear,         // zero the field
  Yield,         // yield opcode / predicate fix-up: S + A (A holds the replacement bits)
  // Extensions beyond the original list:
  AddressWord,   // (S + A) >> 2, nvlink ops 9 and 21 (scale 2)
  SurfDesc,      // surface hardware descriptor (driver)
  ProgRel,       // program-relative offset (finalizer)
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

// Named type numbers (reloc_type::R_CUDA_ABS16_32 == 0x3b, ...), generated
// from the table in src/reloc/reloc_types.def.
namespace reloc_type {
#define DLINK_RELOC(type, name, ...) name = type,
enum : u32 {
#include "reloc/reloc_types.def"
};
#undef DLINK_RELOC
} // namespace reloc_type

// One past the last valid type of each family (the *_NONE_LAST sentinels,
// which have rows of their own).
constexpr u32 kCudaRelocLast = 0x74;                      // R_CUDA_NONE_LAST
constexpr u32 kMercuryRelocLast = kMercuryRelocBase + 0x40; // R_MERCURY_NONE_LAST

// Every row, R_CUDA first (index == type), then R_MERCURY (index ==
// kCudaRelocLast + 1 + type - kMercuryRelocBase).
std::span<const RelocDesc> reloc_table();

// Descriptor for an R_CUDA_* (0..0x74) or R_MERCURY_* (0x10000..) type.
const RelocDesc *find_reloc(u32 type);
std::string_view reloc_name(u32 type); // "unknown" types render as "R_CUDA_<hex>"

inline bool is_mercury_reloc(u32 type) { return type >= kMercuryRelocBase; }

// The intrinsic right shift of a value kind (see RelocValue).
u32 reloc_value_scale(RelocValue value);

// Number of bytes at r_offset that the actions of `desc` touch (the highest
// bitpos + width, rounded up to bytes); 0 for a row without actions.
u32 reloc_field_bytes(const RelocDesc &desc);

// The type nvlink rewrites a UNIFIED relocation to before resolving or
// keeping it (R_CUDA_UNIFIED -> R_CUDA_64, UNIFIED32_LO_32 -> ABS32_LO_32,
// ...); nullopt for every other type.
std::optional<u32> unified_reloc_replacement(u32 type);

// Inserts `width` low bits of `value` at bit `bitpos` of the little-endian
// bit string `word` (8 or 16 bytes for an instruction, fewer for data, as long
// as the field fits). Bits outside the field are kept.
// Widths above 64 zero-extend `value`. Throws std::out_of_range if the field
// does not fit in `word`.
void insert_bits(std::span<u8> word, u32 bitpos, u32 width, u64 value);
// Reads `width` bits at `bitpos`; for widths above 64 the low 64 bits.
u64 extract_bits(std::span<const u8> word, u32 bitpos, u32 width);

// Values available when applying a relocation.
struct RelocInputs {
  u64 address = 0; // S + A
  u32 bank = 0;    // constant bank of S
  u64 header_index = 0;
  u64 slot = 0;
  // REL record (no explicit addend): every action adds the field's current
  // contents, scaled back by the value kind's intrinsic shift, to its
  // quantity before shifting and storing (nvlink's observed behaviour). RELA
  // records (false) overwrite the field.
  bool implicit_addend = false;
};

// Applies every action of `desc` to `word`. Returns false, leaving `word`
// untouched, if an action needs a value kind the caller cannot provide
// (global or function-descriptor addresses, PC-relative values, whole
// instructions: everything the driver or finalizer applies).
bool apply_reloc_fields(const RelocDesc &desc, std::span<u8> word, const RelocInputs &in);

} // namespace dlink
