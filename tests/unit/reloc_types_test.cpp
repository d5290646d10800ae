// Unit tests for the relocation descriptor table and the bit-field engine.
//
// Three groups: (1) structural checks run once per descriptor row (names,
// numbering, field bounds, non-overlap, insert/extract round trips that keep
// every bit outside the field); (2) the engine's own contract (unsupported
// kinds, REL vs RELA, helpers); (3) oracle facts: instruction words copied
// from nvlink 13.0.88 inputs and outputs. Words are written in file byte
// order (what `xxd` shows at the relocation's offset). The sweep tables come
// from re-typing one live relocation to every type and linking (see
// docs/notes/relocations.md, "type sweep"): RELA site with S + A = 0x12361 in
// constant bank 3, REL site with S = 0x1c in bank 3.
#include "dlink/reloc_types.h"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <set>
#include <string>
#include <vector>

namespace dlink {
namespace {

using Word = std::array<u8, 16>;

Word from_hex(std::string_view hex) {
  Word w{};
  for (size_t i = 0; i < w.size(); ++i)
    w[i] = static_cast<u8>(std::stoi(std::string(hex.substr(2 * i, 2)), nullptr, 16));
  return w;
}

std::string to_hex(const Word &w) {
  static const char *digits = "0123456789abcdef";
  std::string s;
  for (u8 b : w) {
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

u64 low_mask(u32 width) { return width >= 64 ? ~u64{0} : (u64{1} << width) - 1; }

// Bits [bitpos, bitpos + width) of a 128-bit word, as a byte mask.
Word field_mask(u32 bitpos, u32 width) {
  Word m{};
  for (u32 b = bitpos; b < bitpos + width; ++b)
    m[b / 8] = static_cast<u8>(m[b / 8] | (1u << (b % 8)));
  return m;
}

bool is_cuda_row(const RelocDesc &d) { return d.type < kMercuryRelocBase; }

// ---------------------------------------------------------------------------
// (1) One case per descriptor row.

class RelocRow : public ::testing::TestWithParam<size_t> {
protected:
  const RelocDesc &row() const { return reloc_table()[GetParam()]; }
};

TEST_P(RelocRow, NumberMatchesIndexAndLookup) {
  const RelocDesc &d = row();
  size_t i = GetParam();
  u32 want = i <= kCudaRelocLast ? static_cast<u32>(i)
                                 : kMercuryRelocBase + static_cast<u32>(i - kCudaRelocLast - 1);
  EXPECT_EQ(d.type, want);
  EXPECT_EQ(find_reloc(d.type), &d);
  EXPECT_EQ(reloc_name(d.type), d.name);
}

TEST_P(RelocRow, NamePrefix) {
  const RelocDesc &d = row();
  std::string_view prefix = is_cuda_row(d) ? "R_CUDA_" : "R_MERCURY_";
  EXPECT_TRUE(d.name.starts_with(prefix)) << d.name;
  EXPECT_GT(d.name.size(), prefix.size());
  EXPECT_EQ(is_mercury_reloc(d.type), !is_cuda_row(d));
}

TEST_P(RelocRow, FieldsInsideWordAndDisjoint) {
  const RelocDesc &d = row();
  Word used{};
  bool any = false;
  for (const RelocAction &a : d.actions) {
    if (!a.width) {
      EXPECT_EQ(a.value, RelocValue::None) << d.name;
      continue;
    }
    any = true;
    EXPECT_NE(a.value, RelocValue::None) << d.name;
    EXPECT_LE(a.bitpos + a.width, 128u) << d.name;
    // Only the whole-instruction row is wider than one u64 value.
    if (a.value != RelocValue::Instruction) {
      EXPECT_LE(a.width, 64u) << d.name;
    }
    // Data relocations (R_MERCURY, and R_CUDA fields at bit 0) stay in 64 bits.
    if (!is_cuda_row(d)) {
      EXPECT_LE(a.bitpos + a.width, 64u) << d.name;
    }
    Word m = field_mask(a.bitpos, a.width);
    for (size_t i = 0; i < m.size(); ++i) {
      EXPECT_EQ(used[i] & m[i], 0) << d.name << " overlapping fields";
      used[i] = static_cast<u8>(used[i] | m[i]);
    }
  }
  bool sentinel = d.name.ends_with("_NONE") || d.name.ends_with("_NONE_LAST");
  EXPECT_EQ(any, !sentinel) << d.name;
  EXPECT_EQ(d.handler == RelocHandler::None, sentinel) << d.name;
  EXPECT_EQ(reloc_field_bytes(d) > 0, any) << d.name;
}

TEST_P(RelocRow, InsertExtractRoundTrips) {
  const RelocDesc &d = row();
  const std::array<Word, 3> backgrounds = {
      Word{}, from_hex("ffffffffffffffffffffffffffffffff"),
      from_hex("0123456789abcdeffedcba9876543210")};
  for (const RelocAction &a : d.actions) {
    if (!a.width)
      continue;
    u32 w = std::min<u32>(a.width, 64);
    u64 m = low_mask(w);
    const std::vector<u64> values = {0,      m,          1,          u64{1} << (w - 1),
                                     m >> 1, 0x5555555555555555 & m, ~u64{0}};
    for (const Word &bg : backgrounds) {
      Word outside = field_mask(a.bitpos, a.width);
      for (u8 &b : outside)
        b = static_cast<u8>(~b);
      for (u64 v : values) {
        Word word = bg;
        insert_bits(word, a.bitpos, a.width, v);
        EXPECT_EQ(extract_bits(word, a.bitpos, a.width), v & m) << d.name;
        for (size_t i = 0; i < word.size(); ++i)
          EXPECT_EQ(word[i] & outside[i], bg[i] & outside[i]) << d.name << " byte " << i;
        // Bits of a field wider than 64 beyond the value are zero.
        if (a.width > 64) {
          EXPECT_EQ(extract_bits(word, a.bitpos + 64, a.width - 64), 0u) << d.name;
        }
      }
    }
  }
}

TEST_P(RelocRow, EngineTouchesOnlyItsFields) {
  const RelocDesc &d = row();
  Word word = from_hex("0123456789abcdeffedcba9876543210");
  const Word before = word;
  RelocInputs in{0x123456789abcdef0, 0x15, 0x2a5, 0x1b3};
  bool applied = apply_reloc_fields(d, word, in);
  Word touched{};
  for (const RelocAction &a : d.actions)
    if (a.width) {
      Word m = field_mask(a.bitpos, a.width);
      for (size_t i = 0; i < m.size(); ++i)
        touched[i] = static_cast<u8>(touched[i] | m[i]);
    }
  for (size_t i = 0; i < word.size(); ++i) {
    if (applied) {
      EXPECT_EQ(word[i] & ~touched[i] & 0xff, before[i] & ~touched[i] & 0xff) << d.name;
    } else {
      EXPECT_EQ(word[i], before[i]) << d.name << ": refused but modified";
    }
  }
  // The driver and finalizer kinds are exactly the ones refused.
  bool needs_loader = false;
  for (const RelocAction &a : d.actions)
    if (a.width && (a.value == RelocValue::Global || a.value == RelocValue::FuncDesc ||
                    a.value == RelocValue::FuncDescAddr || a.value == RelocValue::PcRel ||
                    a.value == RelocValue::Instruction || a.value == RelocValue::SurfDesc ||
                    a.value == RelocValue::ProgRel))
      needs_loader = true;
  EXPECT_EQ(applied, !needs_loader) << d.name;
}

INSTANTIATE_TEST_SUITE_P(AllRows, RelocRow, ::testing::Range<size_t>(0, reloc_table().size()),
                         [](const ::testing::TestParamInfo<size_t> &p) {
                           return std::string(reloc_table()[p.param].name);
                         });

TEST(RelocTable, NamesAreUnique) {
  std::set<std::string_view> names;
  for (const RelocDesc &d : reloc_table())
    EXPECT_TRUE(names.insert(d.name).second) << d.name;
  EXPECT_EQ(reloc_table().size(), size_t{0x75 + 0x41});
}

TEST(RelocTable, NamedConstantsMatchRows) {
  using namespace reloc_type;
  EXPECT_EQ(reloc_name(R_CUDA_ABS16_32), "R_CUDA_ABS16_32");
  EXPECT_EQ(R_CUDA_ABS16_32, 0x3bu);
  EXPECT_EQ(R_CUDA_YIELD_OPCODE9_0, 0x44u);
  EXPECT_EQ(R_CUDA_CONST_FIELD22_37, 0x73u);
  EXPECT_EQ(R_CUDA_NONE_LAST, kCudaRelocLast);
  EXPECT_EQ(R_MERCURY_ABS64, 0x10002u);
  EXPECT_EQ(R_MERCURY_NONE_LAST, kMercuryRelocLast);
}

// ---------------------------------------------------------------------------
// (2) Engine contract.

TEST(RelocEngine, UnknownTypes) {
  EXPECT_EQ(find_reloc(0x75), nullptr);
  EXPECT_EQ(find_reloc(0x10041), nullptr);
  EXPECT_EQ(find_reloc(0xffff), nullptr);
  EXPECT_EQ(reloc_name(0x75), "R_CUDA_75");
  EXPECT_EQ(reloc_name(0x10041), "R_MERCURY_41");
}

TEST(RelocEngine, InsertExtractAcrossTheHalves) {
  Word w{};
  insert_bits(w, 34, 47, 0x7fffffffffff); // R_CUDA_ABS47_34 spans bits 34..80
  EXPECT_EQ(to_hex(w), "00000000fcffffffffff010000000000");
  EXPECT_EQ(extract_bits(w, 34, 47), 0x7fffffffffffu);
  EXPECT_EQ(extract_bits(w, 33, 1), 0u);
  EXPECT_EQ(extract_bits(w, 81, 1), 0u);
}

TEST(RelocEngine, FieldOutsideWordThrows) {
  Word w{};
  EXPECT_THROW(insert_bits(w, 120, 9, 0), std::out_of_range);
  EXPECT_THROW(extract_bits(std::span<const u8>(w).first(8), 60, 5), std::out_of_range);
  std::array<u8, 4> data{};
  insert_bits(data, 0, 32, 0xdeadbeef); // short data words are fine
  EXPECT_EQ(extract_bits(data, 0, 32), 0xdeadbeefu);
}

TEST(RelocEngine, RefusedRowLeavesWordAlone) {
  Word w = from_hex("0123456789abcdeffedcba9876543210");
  EXPECT_FALSE(apply_reloc_fields(*find_reloc(reloc_type::R_CUDA_FUNC_DESC32_LO_32), w, {}));
  EXPECT_FALSE(apply_reloc_fields(*find_reloc(reloc_type::R_CUDA_G64), w, {}));
  EXPECT_FALSE(apply_reloc_fields(*find_reloc(reloc_type::R_MERCURY_PROG_REL64), w, {}));
  EXPECT_EQ(to_hex(w), "0123456789abcdeffedcba9876543210");
}

TEST(RelocEngine, ValueScales) {
  EXPECT_EQ(reloc_value_scale(RelocValue::Address), 0u);
  EXPECT_EQ(reloc_value_scale(RelocValue::AddressWord), 2u);
  EXPECT_EQ(reloc_value_scale(RelocValue::AddressHi), 32u);
  EXPECT_EQ(reloc_value_scale(RelocValue::UnifiedHi), 32u);
  EXPECT_EQ(reloc_value_scale(RelocValue::BankHi), 4u);
}

TEST(RelocEngine, FieldBytes) {
  using namespace reloc_type;
  EXPECT_EQ(reloc_field_bytes(*find_reloc(R_CUDA_NONE)), 0u);
  EXPECT_EQ(reloc_field_bytes(*find_reloc(R_CUDA_8_0)), 1u);
  EXPECT_EQ(reloc_field_bytes(*find_reloc(R_CUDA_32)), 4u);
  EXPECT_EQ(reloc_field_bytes(*find_reloc(R_CUDA_64)), 8u);
  EXPECT_EQ(reloc_field_bytes(*find_reloc(R_CUDA_ABS16_32)), 6u);
  EXPECT_EQ(reloc_field_bytes(*find_reloc(R_CUDA_ABS24_40)), 8u);
  EXPECT_EQ(reloc_field_bytes(*find_reloc(R_CUDA_ABS47_34)), 11u);
  EXPECT_EQ(reloc_field_bytes(*find_reloc(R_CUDA_YIELD_CLEAR_PRED4_87)), 12u);
  EXPECT_EQ(reloc_field_bytes(*find_reloc(R_CUDA_INSTRUCTION128)), 16u);
}

// Measured: nvlink rewrites the UNIFIED family before resolving or keeping
// (sm_90 link of a function-pointer kernel; type sweep against a function).
TEST(RelocEngine, UnifiedReplacement) {
  using namespace reloc_type;
  EXPECT_EQ(unified_reloc_replacement(R_CUDA_UNIFIED), R_CUDA_64);
  EXPECT_EQ(unified_reloc_replacement(R_CUDA_UNIFIED_32), R_CUDA_32);
  for (u32 k = 0; k < 8; ++k)
    EXPECT_EQ(unified_reloc_replacement(R_CUDA_UNIFIED_8_0 + k), R_CUDA_8_0 + k);
  EXPECT_EQ(unified_reloc_replacement(R_CUDA_UNIFIED32_LO_32), R_CUDA_ABS32_LO_32);
  EXPECT_EQ(unified_reloc_replacement(R_CUDA_UNIFIED32_HI_32), R_CUDA_ABS32_HI_32);
  EXPECT_EQ(unified_reloc_replacement(R_MERCURY_UNIFIED), R_MERCURY_ABS64);
  EXPECT_EQ(unified_reloc_replacement(R_CUDA_ABS32_LO_32), std::nullopt);
  // The replacement computes the same field the UNIFIED row describes.
  for (u32 t : {R_CUDA_UNIFIED, R_CUDA_UNIFIED_32, R_CUDA_UNIFIED_8_8, R_CUDA_UNIFIED32_LO_32,
                R_CUDA_UNIFIED32_HI_32}) {
    Word a = from_hex("0123456789abcdeffedcba9876543210"), b = a;
    RelocInputs in{0xfedcba9876543210};
    ASSERT_TRUE(apply_reloc_fields(*find_reloc(t), a, in));
    ASSERT_TRUE(apply_reloc_fields(*find_reloc(*unified_reloc_replacement(t)), b, in));
    EXPECT_EQ(to_hex(a), to_hex(b)) << reloc_name(t);
  }
}

// ---------------------------------------------------------------------------
// (3) Oracle facts.

struct OracleWord {
  u32 type;
  const char *in;
  const char *out;
};

void expect_oracle(const OracleWord &f, const RelocInputs &in) {
  Word w = from_hex(f.in);
  ASSERT_TRUE(apply_reloc_fields(*find_reloc(f.type), w, in)) << reloc_name(f.type);
  EXPECT_EQ(to_hex(w), f.out) << reloc_name(f.type) << " from " << f.in;
}

const OracleWord kRelaSweep[] = {
    {0x01, "00000000000000000000000000000000", "61230100000000000000000000000000"},
    {0x01, "ffffffffffffffffffffffffffffffff", "61230100ffffffffffffffffffffffff"},
    {0x02, "00000000000000000000000000000000", "61230100000000000000000000000000"},
    {0x02, "ffffffffffffffffffffffffffffffff", "6123010000000000ffffffffffffffff"},
    {0x05, "00000000000000000000000000000000", "000000848d0400000000000000000000"},
    {0x05, "ffffffffffffffffffffffffffffffff", "ffffff878d0400fcffffffffffffffff"},
    {0x0a, "00000000000000000000000000000000", "000000848d0400000000000000000000"},
    {0x0a, "ffffffffffffffffffffffffffffffff", "ffffff878d0400fcffffffffffffffff"},
    {0x0b, "00000000000000000000000000000000", "00000000000000000000000000000000"},
    {0x0b, "ffffffffffffffffffffffffffffffff", "ffffff03000000fcffffffffffffffff"},
    {0x0c, "00000000000000000000000000000000", "000080b0910000000000000000000000"},
    {0x0c, "ffffffffffffffffffffffffffffffff", "ffffffb0910080ffffffffffffffffff"},
    {0x0d, "00000000000000000000000000000000", "000080b0910000000000000000000000"},
    {0x0d, "ffffffffffffffffffffffffffffffff", "ffffffb0910080ffffffffffffffffff"},
    {0x0e, "00000000000000000000000000000000", "00000000000000000000000000000000"},
    {0x0e, "ffffffffffffffffffffffffffffffff", "ffff7f00000080ffffffffffffffffff"},
    {0x0f, "00000000000000000000000000000000", "000000848d0400000000000000000000"},
    {0x0f, "ffffffffffffffffffffffffffffffff", "ffffff878d04fcffffffffffffffffff"},
    {0x10, "00000000000000000000000000000000", "000080b0910000000000000000000000"},
    {0x10, "ffffffffffffffffffffffffffffffff", "ffffffb09180ffffffffffffffffffff"},
    {0x11, "00000000000000000000000000000000", "000000848d0000000000000000000000"},
    {0x11, "ffffffffffffffffffffffffffffffff", "ffffff878dfcffffffffffffffffffff"},
    {0x12, "00000000000000000000000000000000", "000080b0110000000000000000000000"},
    {0x12, "ffffffffffffffffffffffffffffffff", "ffffffb091ffffffffffffffffffffff"},
    {0x13, "00000000000000000000000000000000", "00000000450000000000000000000000"},
    {0x13, "ffffffffffffffffffffffffffffffff", "ffffffff45ffffffffffffffffffffff"},
    {0x14, "00000000000000000000000000000000", "00000000000500000000000000000000"},
    {0x14, "ffffffffffffffffffffffffffffffff", "ffffffffffe5ffffffffffffffffffff"},
    {0x15, "00000000000000000000000000000000", "00000014000000000000000000000000"},
    {0x15, "ffffffffffffffffffffffffffffffff", "ffffff17ffffffffffffffffffffffff"},
    {0x16, "00000000000000000000000000000000", "00000000d80800000000000000000000"},
    {0x16, "ffffffffffffffffffffffffffffffff", "ffffffffd8e8ffffffffffffffffffff"},
    {0x17, "00000000000000000000000000000000", "0000000000006c040000000000000000"},
    {0x17, "ffffffffffffffffffffffffffffffff", "ffffffffff7f6cf4ffffffffffffffff"},
    {0x18, "00000000000000000000000000000000", "000000808d0c00000000000000000000"},
    {0x18, "ffffffffffffffffffffffffffffffff", "ffffff8b8dccffffffffffffffffffff"},
    {0x19, "00000000000000000000000000000000", "0000006c640000000000000000000000"},
    {0x19, "ffffffffffffffffffffffffffffffff", "ffff7f6c64fcffffffffffffffffffff"},
    {0x1a, "00000000000000000000000000000000", "0000000000008a020000000000000000"},
    {0x1a, "ffffffffffffffffffffffffffffffff", "ffffffffffff8bfeffffffffffffffff"},
    {0x1b, "00000000000000000000000000000000", "00000080100000000000000000000000"},
    {0x1b, "ffffffffffffffffffffffffffffffff", "fffffffff0ffffffffffffffffffffff"},
    {0x1c, "00000000000000000000000000000000", "00000000008000000000000000000000"},
    {0x1c, "ffffffffffffffffffffffffffffffff", "fffffffffffffeffffffffffffffffff"},
    {0x1d, "00000000000000000000000000000000", "0000000000b011000000000000000000"},
    {0x1d, "ffffffffffffffffffffffffffffffff", "ffffffffffb1d1ffffffffffffffffff"},
    {0x1e, "00000000000000000000000000000000", "0000000000001b010000000000000000"},
    {0x1e, "ffffffffffffffffffffffffffffffff", "ffffffffff1f1bfdffffffffffffffff"},
    {0x24, "00000000000000000000000000000000", "000000848d0c00000000000000000000"},
    {0x24, "ffffffffffffffffffffffffffffffff", "ffffff878d8cffffffffffffffffffff"},
    {0x25, "00000000000000000000000000000000", "00000000206c64000000000000000000"},
    {0x25, "ffffffffffffffffffffffffffffffff", "ffffffff3f6c64fcffffffffffffffff"},
    {0x26, "00000000000000000000000000000000", "00000060230300000000000000000000"},
    {0x26, "ffffffffffffffffffffffffffffffff", "ffffff6323e3ffffffffffffffffffff"},
    {0x27, "00000000000000000000000000000000", "000080b0910100000000000000000000"},
    {0x27, "ffffffffffffffffffffffffffffffff", "ffffffb091f1ffffffffffffffffffff"},
    {0x2a, "00000000000000000000000000000000", "00001036120000000000000000000000"},
    {0x2a, "ffffffffffffffffffffffffffffffff", "ffff1f361200f0ffffffffffffffffff"},
    {0x2b, "00000000000000000000000000000000", "00001036120000000000000000000000"},
    {0x2b, "ffffffffffffffffffffffffffffffff", "ffff1f361200f0ffffffffffffffffff"},
    {0x2c, "00000000000000000000000000000000", "00000000000000000000000000000000"},
    {0x2c, "ffffffffffffffffffffffffffffffff", "ffff0f000000f0ffffffffffffffffff"},
    {0x2d, "00000000000000000000000000000000", "00001036120000000000000000000000"},
    {0x2d, "ffffffffffffffffffffffffffffffff", "ffff1f3612f0ffffffffffffffffffff"},
    {0x2e, "00000000000000000000000000000000", "00001036020000000000000000000000"},
    {0x2e, "ffffffffffffffffffffffffffffffff", "ffff1f36f2ffffffffffffffffffffff"},
    {0x32, "00000000000000000000000000000000", "0000808d0c0000000000000000000000"},
    {0x32, "ffffffffffffffffffffffffffffffff", "ffff8f8d8cffffffffffffffffffffff"},
    {0x33, "00000000000000000000000000000000", "00000000808d00000000000000000000"},
    {0x33, "ffffffffffffffffffffffffffffffff", "ffffffff8f8dfeffffffffffffffffff"},
    {0x36, "00000000000000000000000000000000", "00001036320000000000000000000000"},
    {0x36, "ffffffffffffffffffffffffffffffff", "ffff1f3632feffffffffffffffffffff"},
    {0x37, "00000000000000000000000000000000", "00000000612301000000000000000000"},
    {0x37, "ffffffffffffffffffffffffffffffff", "ffffffff61230100ffffffffffffffff"},
    {0x38, "00000000000000000000000000000000", "00000000612301000000000000000000"},
    {0x38, "ffffffffffffffffffffffffffffffff", "ffffffff61230100ffffffffffffffff"},
    {0x39, "00000000000000000000000000000000", "00000000000000000000000000000000"},
    {0x39, "ffffffffffffffffffffffffffffffff", "ffffffff00000000ffffffffffffffff"},
    {0x3b, "00000000000000000000000000000000", "00000000612300000000000000000000"},
    {0x3b, "ffffffffffffffffffffffffffffffff", "ffffffff6123ffffffffffffffffffff"},
    {0x3c, "00000000000000000000000000000000", "00000000612301000000000000000000"},
    {0x3c, "ffffffffffffffffffffffffffffffff", "ffffffff612301ffffffffffffffffff"},
    {0x40, "00000000000000000000000000000000", "0000000000d8c8000000000000000000"},
    {0x40, "ffffffffffffffffffffffffffffffff", "ffffffffffd8c8f8ffffffffffffffff"},
    {0x41, "00000000000000000000000000000000", "0000000000d808000000000000000000"},
    {0x41, "ffffffffffffffffffffffffffffffff", "ffffffffffd8c8ffffffffffffffffff"},
    {0x42, "00000000000000000000000000000000", "0000000040d8c8000000000000000000"},
    {0x42, "ffffffffffffffffffffffffffffffff", "ffffffff7fd8c8f8ffffffffffffffff"},
    {0x46, "00000000000000000000000000000000", "61230100000000000000000000000000"},
    {0x46, "ffffffffffffffffffffffffffffffff", "61230100ffffffffffffffffffffffff"},
    {0x47, "00000000000000000000000000000000", "00000000000000000000000000000000"},
    {0x47, "ffffffffffffffffffffffffffffffff", "00000000ffffffffffffffffffffffff"},
    {0x4a, "00000000000000000000000000000000", "00000000006123010000000000000000"},
    {0x4a, "ffffffffffffffffffffffffffffffff", "ffffffffff612301ffffffffffffffff"},
    {0x4c, "00000000000000000000000000000000", "61000000000000000000000000000000"},
    {0x4c, "ffffffffffffffffffffffffffffffff", "61ffffffffffffffffffffffffffffff"},
    {0x4d, "00000000000000000000000000000000", "23000000000000000000000000000000"},
    {0x4d, "ffffffffffffffffffffffffffffffff", "23ffffffffffffffffffffffffffffff"},
    {0x4e, "00000000000000000000000000000000", "01000000000000000000000000000000"},
    {0x4e, "ffffffffffffffffffffffffffffffff", "01ffffffffffffffffffffffffffffff"},
    {0x4f, "00000000000000000000000000000000", "00000000000000000000000000000000"},
    {0x4f, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x50, "00000000000000000000000000000000", "00000000000000000000000000000000"},
    {0x50, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x51, "00000000000000000000000000000000", "00000000000000000000000000000000"},
    {0x51, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x52, "00000000000000000000000000000000", "00000000000000000000000000000000"},
    {0x52, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x53, "00000000000000000000000000000000", "00000000000000000000000000000000"},
    {0x53, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x64, "00000000000000000000000000000000", "00000000001036120000000000000000"},
    {0x64, "ffffffffffffffffffffffffffffffff", "ffffffffff1f3612ffffffffffffffff"},
    {0x66, "00000000000000000000000000000000", "61230100000000000000000000000000"},
    {0x66, "ffffffffffffffffffffffffffffffff", "6123010000000000ffffffffffffffff"},
    {0x67, "00000000000000000000000000000000", "61230100000000000000000000000000"},
    {0x67, "ffffffffffffffffffffffffffffffff", "61230100ffffffffffffffffffffffff"},
    {0x68, "00000000000000000000000000000000", "61000000000000000000000000000000"},
    {0x68, "ffffffffffffffffffffffffffffffff", "61ffffffffffffffffffffffffffffff"},
    {0x69, "00000000000000000000000000000000", "23000000000000000000000000000000"},
    {0x69, "ffffffffffffffffffffffffffffffff", "23ffffffffffffffffffffffffffffff"},
    {0x6a, "00000000000000000000000000000000", "01000000000000000000000000000000"},
    {0x6a, "ffffffffffffffffffffffffffffffff", "01ffffffffffffffffffffffffffffff"},
    {0x6b, "00000000000000000000000000000000", "00000000000000000000000000000000"},
    {0x6b, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x6c, "00000000000000000000000000000000", "00000000000000000000000000000000"},
    {0x6c, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x6d, "00000000000000000000000000000000", "00000000000000000000000000000000"},
    {0x6d, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x6e, "00000000000000000000000000000000", "00000000000000000000000000000000"},
    {0x6e, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x6f, "00000000000000000000000000000000", "00000000000000000000000000000000"},
    {0x6f, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x70, "00000000000000000000000000000000", "00000000612301000000000000000000"},
    {0x70, "ffffffffffffffffffffffffffffffff", "ffffffff61230100ffffffffffffffff"},
    {0x71, "00000000000000000000000000000000", "00000000000000000000000000000000"},
    {0x71, "ffffffffffffffffffffffffffffffff", "ffffffff00000000ffffffffffffffff"},
    {0x73, "00000000000000000000000000000000", "00000000206ce4000000000000000000"},
    {0x73, "ffffffffffffffffffffffffffffffff", "ffffffff3f6ce4f8ffffffffffffffff"},
};
const OracleWord kRelSweep[] = {
    {0x01, "1032547698badcfeefcdab8967452301", "2c32547698badcfeefcdab8967452301"},
    {0x01, "ffffffffffffffffffffffffffffffff", "1b000000ffffffffffffffffffffffff"},
    {0x02, "1032547698badcfeefcdab8967452301", "2c32547698badcfeefcdab8967452301"},
    {0x02, "ffffffffffffffffffffffffffffffff", "1b00000000000000ffffffffffffffff"},
    {0x05, "1032547698badcfeefcdab8967452301", "103254e698badcfeefcdab8967452301"},
    {0x05, "ffffffffffffffffffffffffffffffff", "ffffff6f000000fcffffffffffffffff"},
    {0x0a, "1032547698badcfeefcdab8967452301", "103254e698badcfeefcdab8967452301"},
    {0x0a, "ffffffffffffffffffffffffffffffff", "ffffff6f000000fcffffffffffffffff"},
    {0x0b, "1032547698badcfeefcdab8967452301", "1032547698badcfeefcdab8967452301"},
    {0x0b, "ffffffffffffffffffffffffffffffff", "ffffffffffffffffffffffffffffffff"},
    {0x0c, "1032547698badcfeefcdab8967452301", "1032548498badcfeefcdab8967452301"},
    {0x0c, "ffffffffffffffffffffffffffffffff", "ffffff0d000080ffffffffffffffffff"},
    {0x0d, "1032547698badcfeefcdab8967452301", "1032548498badcfeefcdab8967452301"},
    {0x0d, "ffffffffffffffffffffffffffffffff", "ffffff0d000080ffffffffffffffffff"},
    {0x0e, "1032547698badcfeefcdab8967452301", "1032547698badcfeefcdab8967452301"},
    {0x0e, "ffffffffffffffffffffffffffffffff", "ffffffffffffffffffffffffffffffff"},
    {0x0f, "1032547698badcfeefcdab8967452301", "103254e698badcfeefcdab8967452301"},
    {0x0f, "ffffffffffffffffffffffffffffffff", "ffffff6f0000fcffffffffffffffffff"},
    {0x10, "1032547698badcfeefcdab8967452301", "1032548498badcfeefcdab8967452301"},
    {0x10, "ffffffffffffffffffffffffffffffff", "ffffff0d0080ffffffffffffffffffff"},
    {0x11, "1032547698badcfeefcdab8967452301", "103254e698badcfeefcdab8967452301"},
    {0x11, "ffffffffffffffffffffffffffffffff", "ffffff6f00fcffffffffffffffffffff"},
    {0x12, "1032547698badcfeefcdab8967452301", "1032548498badcfeefcdab8967452301"},
    {0x12, "ffffffffffffffffffffffffffffffff", "ffffff0d80ffffffffffffffffffffff"},
    {0x13, "1032547698badcfeefcdab8967452301", "1032547698badcfeefcdab8967452301"},
    {0x13, "ffffffffffffffffffffffffffffffff", "ffffffffffffffffffffffffffffffff"},
    {0x14, "1032547698badcfeefcdab8967452301", "1032547698badcfeefcdab8967452301"},
    {0x14, "ffffffffffffffffffffffffffffffff", "ffffffffffffffffffffffffffffffff"},
    {0x15, "1032547698badcfeefcdab8967452301", "1032547698badcfeefcdab8967452301"},
    {0x15, "ffffffffffffffffffffffffffffffff", "ffffffffffffffffffffffffffffffff"},
    {0x16, "1032547698badcfeefcdab8967452301", "103254769fbadcfeefcdab8967452301"},
    {0x16, "ffffffffffffffffffffffffffffffff", "ffffffff06e0ffffffffffffffffffff"},
    {0x17, "1032547698badcfeefcdab8967452301", "10325476983ae0feefcdab8967452301"},
    {0x17, "ffffffffffffffffffffffffffffffff", "ffffffffff7f03f0ffffffffffffffff"},
    {0x18, "1032547698badcfeefcdab8967452301", "103254e69886dcfeefcdab8967452301"},
    {0x18, "ffffffffffffffffffffffffffffffff", "ffffff6f00c8ffffffffffffffffffff"},
    {0x19, "1032547698badcfeefcdab8967452301", "1032d479f8badcfeefcdab8967452301"},
    {0x19, "ffffffffffffffffffffffffffffffff", "ffff7f0340fcffffffffffffffffffff"},
    {0x1a, "1032547698badcfeefcdab8967452301", "1032547698badcfeefcdab8967452301"},
    {0x1a, "ffffffffffffffffffffffffffffffff", "ffffffffffffffffffffffffffffffff"},
    {0x1b, "1032547698badcfeefcdab8967452301", "1032547686badcfeefcdab8967452301"},
    {0x1b, "ffffffffffffffffffffffffffffffff", "ffffffffedffffffffffffffffffffff"},
    {0x1c, "1032547698badcfeefcdab8967452301", "1032547698badcfeefcdab8967452301"},
    {0x1c, "ffffffffffffffffffffffffffffffff", "ffffffffffffffffffffffffffffffff"},
    {0x1d, "1032547698badcfeefcdab8967452301", "1032547698c8dcfeefcdab8967452301"},
    {0x1d, "ffffffffffffffffffffffffffffffff", "ffffffffff0dc0ffffffffffffffffff"},
    {0x1e, "1032547698badcfeefcdab8967452301", "10325476989addfeefcdab8967452301"},
    {0x1e, "ffffffffffffffffffffffffffffffff", "ffffffffffdf00fcffffffffffffffff"},
    {0x24, "1032547698badcfeefcdab8967452301", "103254e698c6dcfeefcdab8967452301"},
    {0x24, "ffffffffffffffffffffffffffffffff", "ffffff6f0088ffffffffffffffffffff"},
    {0x25, "1032547698badcfeefcdab8967452301", "1032547618be3cffefcdab8967452301"},
    {0x25, "ffffffffffffffffffffffffffffffff", "ffffffff7f0340fcffffffffffffffff"},
    {0x26, "1032547698badcfeefcdab8967452301", "1032549298bddcfeefcdab8967452301"},
    {0x26, "ffffffffffffffffffffffffffffffff", "ffffff1b00e2ffffffffffffffffffff"},
    {0x27, "1032547698badcfeefcdab8967452301", "1032548418bcdcfeefcdab8967452301"},
    {0x27, "ffffffffffffffffffffffffffffffff", "ffffff0d00f1ffffffffffffffffffff"},
    {0x2a, "1032547698badcfeefcdab8967452301", "1032147898badcfeefcdab8967452301"},
    {0x2a, "ffffffffffffffffffffffffffffffff", "ffffbf010000f0ffffffffffffffffff"},
    {0x2b, "1032547698badcfeefcdab8967452301", "1032147898badcfeefcdab8967452301"},
    {0x2b, "ffffffffffffffffffffffffffffffff", "ffffbf010000f0ffffffffffffffffff"},
    {0x2c, "1032547698badcfeefcdab8967452301", "1032547698badcfeefcdab8967452301"},
    {0x2c, "ffffffffffffffffffffffffffffffff", "ffffffffffffffffffffffffffffffff"},
    {0x2d, "1032547698badcfeefcdab8967452301", "1032147898badcfeefcdab8967452301"},
    {0x2d, "ffffffffffffffffffffffffffffffff", "ffffbf0100f0ffffffffffffffffffff"},
    {0x2e, "1032547698badcfeefcdab8967452301", "1032147898badcfeefcdab8967452301"},
    {0x2e, "ffffffffffffffffffffffffffffffff", "ffffbf01f0ffffffffffffffffffffff"},
    {0x32, "1032547698badcfeefcdab8967452301", "1032c476a4badcfeefcdab8967452301"},
    {0x32, "ffffffffffffffffffffffffffffffff", "ffff6f0088ffffffffffffffffffffff"},
    {0x33, "1032547698badcfeefcdab8967452301", "1032547608bbdcfeefcdab8967452301"},
    {0x33, "ffffffffffffffffffffffffffffffff", "ffffffff6f00feffffffffffffffffff"},
    {0x36, "1032547698badcfeefcdab8967452301", "10321478c8badcfeefcdab8967452301"},
    {0x36, "ffffffffffffffffffffffffffffffff", "ffffbf0120feffffffffffffffffffff"},
    {0x37, "1032547698badcfeefcdab8967452301", "10325476b4badcfeefcdab8967452301"},
    {0x37, "ffffffffffffffffffffffffffffffff", "ffffffff1b000000ffffffffffffffff"},
    {0x38, "1032547698badcfeefcdab8967452301", "10325476b4badcfeefcdab8967452301"},
    {0x38, "ffffffffffffffffffffffffffffffff", "ffffffff1b000000ffffffffffffffff"},
    {0x39, "1032547698badcfeefcdab8967452301", "1032547698badcfeefcdab8967452301"},
    {0x39, "ffffffffffffffffffffffffffffffff", "ffffffffffffffffffffffffffffffff"},
    {0x3b, "1032547698badcfeefcdab8967452301", "10325476b4badcfeefcdab8967452301"},
    {0x3b, "ffffffffffffffffffffffffffffffff", "ffffffff1b00ffffffffffffffffffff"},
    {0x3c, "1032547698badcfeefcdab8967452301", "10325476b4badcfeefcdab8967452301"},
    {0x3c, "ffffffffffffffffffffffffffffffff", "ffffffff1b0000ffffffffffffffffff"},
    {0x40, "1032547698badcfeefcdab8967452301", "1032547698c19cffefcdab8967452301"},
    {0x40, "ffffffffffffffffffffffffffffffff", "ffffffffff0680f8ffffffffffffffff"},
    {0x41, "1032547698badcfeefcdab8967452301", "1032547698c1dcfeefcdab8967452301"},
    {0x41, "ffffffffffffffffffffffffffffffff", "ffffffffff06c0ffffffffffffffffff"},
    {0x42, "1032547698badcfeefcdab8967452301", "1032547698c19cffefcdab8967452301"},
    {0x42, "ffffffffffffffffffffffffffffffff", "ffffffffff0680f8ffffffffffffffff"},
    {0x46, "1032547698badcfeefcdab8967452301", "2c32547698badcfeefcdab8967452301"},
    {0x46, "ffffffffffffffffffffffffffffffff", "1b000000ffffffffffffffffffffffff"},
    {0x47, "1032547698badcfeefcdab8967452301", "1032547698badcfeefcdab8967452301"},
    {0x47, "ffffffffffffffffffffffffffffffff", "ffffffffffffffffffffffffffffffff"},
    {0x4a, "1032547698badcfeefcdab8967452301", "1032547698d6dcfeefcdab8967452301"},
    {0x4a, "ffffffffffffffffffffffffffffffff", "ffffffffff1b0000ffffffffffffffff"},
    {0x4c, "1032547698badcfeefcdab8967452301", "2c32547698badcfeefcdab8967452301"},
    {0x4c, "ffffffffffffffffffffffffffffffff", "1bffffffffffffffffffffffffffffff"},
    {0x4d, "1032547698badcfeefcdab8967452301", "0032547698badcfeefcdab8967452301"},
    {0x4d, "ffffffffffffffffffffffffffffffff", "01ffffffffffffffffffffffffffffff"},
    {0x4e, "1032547698badcfeefcdab8967452301", "0032547698badcfeefcdab8967452301"},
    {0x4e, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x4f, "1032547698badcfeefcdab8967452301", "0032547698badcfeefcdab8967452301"},
    {0x4f, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x50, "1032547698badcfeefcdab8967452301", "0032547698badcfeefcdab8967452301"},
    {0x50, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x51, "1032547698badcfeefcdab8967452301", "0032547698badcfeefcdab8967452301"},
    {0x51, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x52, "1032547698badcfeefcdab8967452301", "0032547698badcfeefcdab8967452301"},
    {0x52, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x53, "1032547698badcfeefcdab8967452301", "0032547698badcfeefcdab8967452301"},
    {0x53, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x64, "1032547698badcfeefcdab8967452301", "10325476987adefeefcdab8967452301"},
    {0x64, "ffffffffffffffffffffffffffffffff", "ffffffffffbf0100ffffffffffffffff"},
    {0x66, "1032547698badcfeefcdab8967452301", "2c32547698badcfeefcdab8967452301"},
    {0x66, "ffffffffffffffffffffffffffffffff", "1b00000000000000ffffffffffffffff"},
    {0x67, "1032547698badcfeefcdab8967452301", "2c32547698badcfeefcdab8967452301"},
    {0x67, "ffffffffffffffffffffffffffffffff", "1b000000ffffffffffffffffffffffff"},
    {0x68, "1032547698badcfeefcdab8967452301", "2c32547698badcfeefcdab8967452301"},
    {0x68, "ffffffffffffffffffffffffffffffff", "1bffffffffffffffffffffffffffffff"},
    {0x69, "1032547698badcfeefcdab8967452301", "0032547698badcfeefcdab8967452301"},
    {0x69, "ffffffffffffffffffffffffffffffff", "01ffffffffffffffffffffffffffffff"},
    {0x6a, "1032547698badcfeefcdab8967452301", "0032547698badcfeefcdab8967452301"},
    {0x6a, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x6b, "1032547698badcfeefcdab8967452301", "0032547698badcfeefcdab8967452301"},
    {0x6b, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x6c, "1032547698badcfeefcdab8967452301", "0032547698badcfeefcdab8967452301"},
    {0x6c, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x6d, "1032547698badcfeefcdab8967452301", "0032547698badcfeefcdab8967452301"},
    {0x6d, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x6e, "1032547698badcfeefcdab8967452301", "0032547698badcfeefcdab8967452301"},
    {0x6e, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x6f, "1032547698badcfeefcdab8967452301", "0032547698badcfeefcdab8967452301"},
    {0x6f, "ffffffffffffffffffffffffffffffff", "00ffffffffffffffffffffffffffffff"},
    {0x70, "1032547698badcfeefcdab8967452301", "10325476b4badcfeefcdab8967452301"},
    {0x70, "ffffffffffffffffffffffffffffffff", "ffffffff1b000000ffffffffffffffff"},
    {0x71, "1032547698badcfeefcdab8967452301", "1032547698badcfeefcdab8967452301"},
    {0x71, "ffffffffffffffffffffffffffffffff", "ffffffffffffffffffffffffffffffff"},
    {0x73, "1032547698badcfeefcdab8967452301", "1032547618be9cffefcdab8967452301"},
    {0x73, "ffffffffffffffffffffffffffffffff", "ffffffff7f0380f8ffffffffffffffff"},
};

// RELA (overwrite): constant symbol at bank offset 0x1c, addend 0x12345.
// Slot kinds get A only (the symbol is no texture).
TEST(RelocOracle, TypeSweepRela) {
  for (const OracleWord &f : kRelaSweep)
    expect_oracle(f, RelocInputs{0x12361, 3, 0, 0x12345});
}

// REL (implicit addend): same symbol, no addend; the field's contents are
// added in the value's own units.
TEST(RelocOracle, TypeSweepRel) {
  for (const OracleWord &f : kRelSweep)
    expect_oracle(f, RelocInputs{0x1c, 3, 0, 0, true});
}

// Words at resolved relocations of real links (a.cu/b.cu of the notes).
TEST(RelocOracle, Sm75ConstantOffsets) {
  using namespace reloc_type;
  // .rel: ABS16_32 against cX (0xd0) and cA (0x1c) in .nv.constant3.
  expect_oracle({R_CUDA_ABS16_32, "82780500000000000000000000e20f00",
                 "82780500d00000000000000000e20f00"},
                {0xd0, 3, 0, 0, true});
  expect_oracle({R_CUDA_ABS16_32, "82780400000000000000000000e20f00",
                 "827804001c0000000000000000e20f00"},
                {0x1c, 3, 0, 0, true});
  // The same cX site with the word pre-filled with ones: REL adds.
  expect_oracle({R_CUDA_ABS16_32, "ffffffffffffffffffffffffffffffff",
                 "ffffffffcf00ffffffffffffffffffff"},
                {0xd0, 3, 0, 0, true});
  // .rela: CONST_FIELD19_40, cA + 0xc and cX + 0x14: word offset and bank 3.
  expect_oracle({R_CUDA_CONST_FIELD19_40, "107a03030000000004e0ff0700c84f00",
                 "107a0303000ac00004e0ff0700c84f00"},
                {0x1c + 0xc, 3});
  expect_oracle({R_CUDA_CONST_FIELD19_40, "107a03000000000003e0ff0700d08f00",
                 "107a03000039c00003e0ff0700d08f00"},
                {0xd0 + 0x14, 3});
}

TEST(RelocOracle, Sm75SharedOffsets) {
  using namespace reloc_type;
  // ABS24_40 against a __shared__ array placed at 0x88 of its kernel's window.
  expect_oracle({R_CUDA_ABS24_40, "88730002030000000048000000e80f00",
                 "88730002038800000048000000e80f00"},
                {0x88, 0, 0, 0, true});
  expect_oracle({R_CUDA_ABS24_40, "ffffffffffffffffffffffffffffffff",
                 "ffffffffff870000ffffffffffffffff"},
                {0x88, 0, 0, 0, true});
  // .rela with addend 8 against the array at 0: overwrite.
  expect_oracle({R_CUDA_ABS24_40, "8479060600000000001a000000680e00",
                 "8479060600080000001a000000680e00"},
                {0x8});
  expect_oracle({R_CUDA_ABS24_40, "ffffffffffffffffffffffffffffffff",
                 "ffffffffff080000ffffffffffffffff"},
                {0x8});
}

TEST(RelocOracle, Sm90ConstantAndShared) {
  using namespace reloc_type;
  expect_oracle({R_CUDA_ABS16_32, "82780400000000000000000000ca0f00",
                 "827804001c0000000000000000ca0f00"},
                {0x1c, 3});
  expect_oracle({R_CUDA_ABS32_32, "82780400000000000000000000e20f00",
                 "82780400880000000000000000e20f00"},
                {0x88});
  expect_oracle({R_CUDA_ABS32_32, "ffffffffffffffffffffffffffffffff",
                 "ffffffff88000000ffffffffffffffff"},
                {0x88});
  expect_oracle({R_CUDA_CONST_FIELD21_38, "b97a04000000c0000008000000c80f00",
                 "b97a0400000ac0000008000000c80f00"},
                {0x1c + 0xc, 3});
  expect_oracle({R_CUDA_CONST_FIELD21_38, "ffffffffffffffffffffffffffffffff",
                 "ffffffff3f0ac0f8ffffffffffffffff"},
                {0x1c + 0xc, 3});
}

// .texref/.surfref uses: S is the offset of the slot nvlink appends to the
// kernel's .nv.constant0 (bank 0).
TEST(RelocOracle, TextureSlots) {
  using namespace reloc_type;
  // sm_75, unified texmode: BINDLESSOFF14_40 (.rel), tex0 slot at 0x174.
  expect_oracle({R_CUDA_BINDLESSOFF14_40, "607b000406000030ff019e0100c20f04",
                 "607b0004065d0030ff019e0100c20f04"},
                {0x174, 0, 0, 0, true});
  // sm_90: CONST_FIELD21_38 (.rela, addend 0), tex0 slot at 0x224.
  expect_oracle({R_CUDA_CONST_FIELD21_38, "b97a0400008700000008000000e20f00",
                 "b97a0400008900000008000000e20f00"},
                {0x224, 0});
  // sm_75, independent texmode: ptxas gives addend 0x16c and nvlink writes
  // slot (0x178) + addend = 0x2e4, past the end of the bank.
  expect_oracle({R_CUDA_CONST_FIELD21_38, "b97a0400000000000008000000e20f00",
                 "b97a040000b900000008000000e20f00"},
                {0x178 + 0x16c, 0});
}

// .debug_frame: the CIE pointer of the second object's FDE (R_CUDA_64 against
// the .debug_frame section symbol, addend 0x70) after that object's frames
// were placed at 0x70; and UNUSED_CLEAR64 on the FDE of a discarded function.
TEST(RelocOracle, DebugFrame) {
  using namespace reloc_type;
  std::array<u8, 8> cie{};
  ASSERT_TRUE(apply_reloc_fields(*find_reloc(R_CUDA_64), cie, {0x70 + 0x70}));
  EXPECT_EQ(cie, (std::array<u8, 8>{0xe0, 0, 0, 0, 0, 0, 0, 0}));
  std::array<u8, 8> range{0x00, 0x01, 0, 0, 0, 0, 0, 0}; // function size 0x100
  ASSERT_TRUE(apply_reloc_fields(*find_reloc(R_CUDA_UNUSED_CLEAR64), range, {}));
  EXPECT_EQ(range, (std::array<u8, 8>{}));
}

// nvlink drops YIELD records without touching the word ("forward progress
// requirement"); this pins what the rows themselves describe: A = 0x118 turns
// the YIELD opcode (0x946) into NOP (0x918) and A = 0 clears the predicate
// at bits 87..90.
TEST(RelocOracle, YieldRowsDescribeNopConversion) {
  using namespace reloc_type;
  Word w = from_hex("46790000000000000000800300e20f00"); // sm_75 YIELD as ptxas emits it
  ASSERT_TRUE(apply_reloc_fields(*find_reloc(R_CUDA_YIELD_OPCODE9_0), w, {0x118}));
  ASSERT_TRUE(apply_reloc_fields(*find_reloc(R_CUDA_YIELD_CLEAR_PRED4_87), w, {0}));
  EXPECT_EQ(to_hex(w), "18790000000000000000000000e20f00");
}

} // namespace
} // namespace dlink
