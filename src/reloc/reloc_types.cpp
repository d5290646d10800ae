// The relocation descriptor table and the generic bit-field engine.
//
// Expands src/reloc/reloc_types.def into one constexpr array (R_CUDA rows at
// index == type, R_MERCURY rows after them), answers look-ups by type number,
// and applies a row's actions to the bytes at r_offset: compute each action's
// value, shift it, and store it into its bit field of the little-endian word,
// keeping every bit outside the fields. RELA records overwrite the fields;
// REL records add the field's current contents first, the way nvlink 13.0.88
// was measured to do it (docs/notes/relocations.md).
#include "dlink/reloc_types.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace dlink {

namespace {

#define DLINK_ACT(bitpos, width, value, shift) RelocAction{bitpos, width, RelocValue::value, shift}
#define DLINK_RELOC(type, name, handler, ...) RelocDesc{type, #name, RelocHandler::handler, {__VA_ARGS__}},
constexpr RelocDesc kTable[] = {
#include "reloc/reloc_types.def"
};
#undef DLINK_RELOC
#undef DLINK_ACT

constexpr size_t kMercuryIndex = kCudaRelocLast + 1;

constexpr bool table_is_contiguous() {
  for (size_t i = 0; i < std::size(kTable); ++i) {
    u32 want = i < kMercuryIndex ? static_cast<u32>(i)
                                 : kMercuryRelocBase + static_cast<u32>(i - kMercuryIndex);
    if (kTable[i].type != want)
      return false;
  }
  return std::size(kTable) == kMercuryIndex + (kMercuryRelocLast - kMercuryRelocBase) + 1;
}
static_assert(table_is_contiguous(), "reloc_types.def rows must be contiguous");

// Values that the engine can compute, before the intrinsic scale.
std::optional<u64> raw_value(RelocValue kind, const RelocInputs &in) {
  switch (kind) {
  case RelocValue::Address:
  case RelocValue::AddressLo:
  case RelocValue::AddressHi:
  case RelocValue::AddressWord:
  case RelocValue::Unified:
  case RelocValue::UnifiedLo:
  case RelocValue::UnifiedHi:
  case RelocValue::Yield:
    return in.address;
  case RelocValue::Bank:
  case RelocValue::BankHi:
    return in.bank;
  case RelocValue::HeaderIndex:
    return in.header_index;
  case RelocValue::Slot:
    return in.slot;
  case RelocValue::Clear:
    return 0;
  case RelocValue::None:
  case RelocValue::Global:
  case RelocValue::FuncDesc:
  case RelocValue::FuncDescAddr:
  case RelocValue::PcRel:
  case RelocValue::Instruction:
  case RelocValue::SurfDesc:
  case RelocValue::ProgRel:
    break;
  }
  return std::nullopt;
}

void check_field(size_t bytes, u32 bitpos, u32 width) {
  if (static_cast<u64>(bitpos) + width > bytes * 8)
    throw std::out_of_range("relocation field [" + std::to_string(bitpos) + "+" +
                            std::to_string(width) + "] outside a " + std::to_string(bytes) +
                            "-byte word");
}

} // namespace

std::span<const RelocDesc> reloc_table() { return kTable; }

const RelocDesc *find_reloc(u32 type) {
  if (type <= kCudaRelocLast)
    return &kTable[type];
  if (type >= kMercuryRelocBase && type <= kMercuryRelocLast)
    return &kTable[kMercuryIndex + (type - kMercuryRelocBase)];
  return nullptr;
}

std::string_view reloc_name(u32 type) {
  if (const RelocDesc *d = find_reloc(type))
    return d->name;
  // Unknown numbers: a small ring of buffers keeps the views valid for a
  // while without allocating per call site.
  static thread_local std::string ring[4];
  static thread_local unsigned next = 0;
  std::string &s = ring[next++ % 4];
  char buf[16];
  std::snprintf(buf, sizeof buf, "%x", is_mercury_reloc(type) ? type - kMercuryRelocBase : type);
  s = std::string(is_mercury_reloc(type) ? "R_MERCURY_" : "R_CUDA_") + buf;
  return s;
}

u32 reloc_value_scale(RelocValue value) {
  switch (value) {
  case RelocValue::AddressHi:
  case RelocValue::UnifiedHi:
    return 32;
  case RelocValue::AddressWord:
    return 2;
  case RelocValue::BankHi:
    return 4;
  default:
    return 0;
  }
}

u32 reloc_field_bytes(const RelocDesc &desc) {
  u32 end = 0;
  for (const RelocAction &a : desc.actions)
    if (a.width)
      end = std::max<u32>(end, a.bitpos + a.width);
  return (end + 7) / 8;
}

std::optional<u32> unified_reloc_replacement(u32 type) {
  using namespace reloc_type;
  if (type == R_CUDA_UNIFIED)
    return R_CUDA_64;
  if (type == R_CUDA_UNIFIED_32)
    return R_CUDA_32;
  if (type >= R_CUDA_UNIFIED_8_0 && type <= R_CUDA_UNIFIED_8_56)
    return R_CUDA_8_0 + (type - R_CUDA_UNIFIED_8_0);
  if (type == R_CUDA_UNIFIED32_LO_32)
    return R_CUDA_ABS32_LO_32;
  if (type == R_CUDA_UNIFIED32_HI_32)
    return R_CUDA_ABS32_HI_32;
  if (type == R_MERCURY_UNIFIED)
    return R_MERCURY_ABS64;
  // Measured on sm_100 links (function addresses taken in code).
  if (type == R_MERCURY_UNIFIED32_LO)
    return R_MERCURY_ABS32_LO;
  if (type == R_MERCURY_UNIFIED32_HI)
    return R_MERCURY_ABS32_HI;
  return std::nullopt;
}

void insert_bits(std::span<u8> word, u32 bitpos, u32 width, u64 value) {
  check_field(word.size(), bitpos, width);
  for (u32 done = 0; done < width;) {
    u32 bit = bitpos + done;
    u32 shift = bit % 8;
    u32 take = std::min(8 - shift, width - done);
    u8 mask = static_cast<u8>(((1u << take) - 1) << shift);
    u8 bits = done < 64 ? static_cast<u8>((value >> done) << shift) : 0;
    u8 &byte = word[bit / 8];
    byte = static_cast<u8>((byte & ~mask) | (bits & mask));
    done += take;
  }
}

u64 extract_bits(std::span<const u8> word, u32 bitpos, u32 width) {
  check_field(word.size(), bitpos, width);
  u64 value = 0;
  for (u32 done = 0; done < width && done < 64;) {
    u32 bit = bitpos + done;
    u32 shift = bit % 8;
    u32 take = std::min(8 - shift, width - done);
    u64 bits = (word[bit / 8] >> shift) & ((1u << take) - 1);
    value |= bits << done;
    done += take;
  }
  return value;
}

bool apply_reloc_fields(const RelocDesc &desc, std::span<u8> word, const RelocInputs &in) {
  std::array<u64, 3> values{};
  for (size_t i = 0; i < desc.actions.size(); ++i) {
    const RelocAction &a = desc.actions[i];
    if (!a.width)
      continue;
    std::optional<u64> raw = raw_value(a.value, in);
    if (!raw)
      return false;
    check_field(word.size(), a.bitpos, a.width);
    u32 scale = reloc_value_scale(a.value);
    u64 v = *raw;
    if (in.implicit_addend && a.value != RelocValue::Clear) {
      // REL: the field holds the addend in the value's own units.
      u64 old = extract_bits(word, a.bitpos, a.width);
      v += scale < 64 ? old << scale : 0;
    }
    v >>= scale;
    values[i] = a.shift < 64 ? v >> a.shift : 0;
  }
  for (size_t i = 0; i < desc.actions.size(); ++i) {
    const RelocAction &a = desc.actions[i];
    if (a.width)
      insert_bits(word, a.bitpos, a.width, values[i]);
  }
  return true;
}

} // namespace dlink
