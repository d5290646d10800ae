// EIATTR records: names, parse/encode round trips, malformed input, and the
// decoded renderings used by dlink-dump; plus a round trip over every
// .nv.info*, .nv.merc.nv.info* and .nv.compat section of the test corpus.
#include "dlink/eiattr.h"
#include "dlink/elf.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace dlink {
namespace {

namespace fs = std::filesystem;

TEST(Eiattr, Names) {
  EXPECT_EQ(eiattr_name(0x00), "EIATTR_ERROR");
  EXPECT_EQ(eiattr_name(EIATTR_PARAM_CBANK), "EIATTR_PARAM_CBANK");
  EXPECT_EQ(eiattr_name(0x0f), "EIATTR_EXTERNS");
  EXPECT_EQ(eiattr_name(0x17), "EIATTR_KPARAM_INFO");
  EXPECT_EQ(eiattr_name(0x2f), "EIATTR_REGCOUNT");
  EXPECT_EQ(eiattr_name(0x4f), "EIATTR_AT_ENTRY_FRAGEMENTS"); // sic, as nvlink spells it
  EXPECT_EQ(eiattr_name(0x5a), "EIATTR_MERCURY_FINALIZER_OPTIONS");
  EXPECT_EQ(eiattr_name(0x5f), "EIATTR_MERCURY_ISA_VERSION");
  EXPECT_EQ(eiattr_name(0x60), "EIATTR_0x60");
  EXPECT_EQ(eiattr_name(0x61), "EIATTR_0x61");
  EXPECT_EQ(eiattr_name(0xff), "EIATTR_0xff");
  // Every known code has a distinct EIATTR_ name.
  for (int i = 0; i < 0x60; i++) {
    auto name = eiattr_name(static_cast<u8>(i));
    EXPECT_TRUE(name.starts_with("EIATTR_")) << i;
    EXPECT_FALSE(name.starts_with("EIATTR_0x")) << i;
    for (int j = 0; j < i; j++)
      EXPECT_NE(name, eiattr_name(static_cast<u8>(j)));
  }
  EXPECT_EQ(eicompat_name(0x07), "EICOMPAT_ATTR_MERCURY_ISA_MAJOR_MINOR_VERSION");
  EXPECT_EQ(eicompat_name(0x09), "EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET");
  EXPECT_EQ(eicompat_name(0x0b), "EICOMPAT_0x0b");
}

// `.nv.info.<f>` style bytes with one record of each format.
const std::vector<u8> kSample = {
    0x04, 0x2f, 0x08, 0x00, 0x16, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00, // REGCOUNT sym 22, 24
    0x01, 0x35, 0x00, 0x00,                                                 // SW2861232_WAR
    0x02, 0x4c, 0x01, 0x00,                                                 // NUM_BARRIERS 1
    0x03, 0x1b, 0xff, 0x00,                                                 // MAXREG_COUNT 0xff
    0x04, 0x1c, 0x08, 0x00, 0x70, 0x00, 0x00, 0x00, 0xa0, 0x01, 0x00, 0x00, // EXIT offsets
    0x04, 0x0f, 0x00, 0x00,                                                 // empty EXTERNS
};

// The attribute table (eiattr.def): names, payload layouts and symbol fields
// by code; codes past the table are unknown.
TEST(Eiattr, TableRows) {
  ASSERT_NE(eiattr_info(EIATTR_REGCOUNT), nullptr);
  EXPECT_EQ(eiattr_info(EIATTR_REGCOUNT)->code, 0x2f);
  EXPECT_EQ(eiattr_info(EIATTR_REGCOUNT)->name, "EIATTR_REGCOUNT");
  EXPECT_EQ(eiattr_info(EIATTR_REGCOUNT)->layout, EiLayout::SymValue);
  EXPECT_EQ(eiattr_info(EIATTR_MERCURY_ISA_VERSION)->code, 0x5f);
  EXPECT_EQ(eiattr_info(0x60), nullptr);
  EXPECT_EQ(eiattr_name(0x60), "EIATTR_0x60");
  for (u8 attr : {EIATTR_REGCOUNT, EIATTR_FRAME_SIZE, EIATTR_MIN_STACK_SIZE, EIATTR_MAX_STACK_SIZE,
                  EIATTR_CRS_STACK_SIZE, EIATTR_PARAM_CBANK, EIATTR_SAMPLER_INIT})
    EXPECT_EQ(eiattr_symbols(attr), EiSymbols::First) << eiattr_name(attr);
  EXPECT_EQ(eiattr_symbols(EIATTR_EXTERNS), EiSymbols::All);
  EXPECT_EQ(eiattr_symbols(EIATTR_KPARAM_INFO), EiSymbols::None);
  EXPECT_EQ(eiattr_symbols(EIATTR_NUM_BARRIERS), EiSymbols::None);
  EXPECT_EQ(eiattr_symbols(0xff), EiSymbols::None);
}

// One record encoder: encode_eiattr() writes what encode_eiattrs() does.
TEST(Eiattr, OneRecordEncoder) {
  const u8 payload[8] = {1, 0, 0, 0, 24, 0, 0, 0};
  std::vector<EiRecord> recs(2);
  recs[0].format = EIFMT_SVAL;
  recs[0].attr = EIATTR_REGCOUNT;
  recs[0].payload = payload;
  recs[1].format = EIFMT_BVAL;
  recs[1].attr = EIATTR_NUM_BARRIERS;
  recs[1].value = 3;
  Arena arena;
  std::span<const u8> all = encode_eiattrs(arena, recs);
  std::vector<u8> one(all.size());
  size_t n = encode_eiattr(one.data(), recs[0].format, recs[0].attr, recs[0].value, recs[0].payload);
  EXPECT_EQ(n, 12u);
  n += encode_eiattr(one.data() + n, recs[1].format, recs[1].attr, recs[1].value, recs[1].payload);
  EXPECT_EQ(n, all.size());
  EXPECT_TRUE(std::equal(one.begin(), one.end(), all.begin()));
  EXPECT_EQ(std::vector<u8>(all.begin(), all.begin() + 4), (std::vector<u8>{EIFMT_SVAL, EIATTR_REGCOUNT, 8, 0}));
}

TEST(Eiattr, ParseSample) {
  auto recs = parse_eiattrs(kSample);
  ASSERT_EQ(recs.size(), 6u);
  EXPECT_EQ(recs[0].format, EIFMT_SVAL);
  EXPECT_EQ(recs[0].attr, EIATTR_REGCOUNT);
  EXPECT_EQ(recs[0].value, 8);
  ASSERT_EQ(recs[0].payload.size(), 8u);
  EXPECT_EQ(recs[0].payload_u32(0), 22u);
  EXPECT_EQ(recs[0].payload_u32(1), 24u);
  EXPECT_EQ(recs[1].format, EIFMT_NVAL);
  EXPECT_EQ(recs[1].attr, EIATTR_SW2861232_WAR);
  EXPECT_EQ(recs[2].format, EIFMT_BVAL);
  EXPECT_EQ(recs[2].value, 1);
  EXPECT_EQ(recs[3].format, EIFMT_HVAL);
  EXPECT_EQ(recs[3].value, 0xff);
  EXPECT_EQ(recs[4].encoded_size(), 12u);
  EXPECT_EQ(recs[5].payload.size(), 0u);
}

TEST(Eiattr, EncodeRoundTrip) {
  Arena arena;
  auto recs = parse_eiattrs(kSample);
  auto bytes = encode_eiattrs(arena, recs);
  EXPECT_EQ(std::vector<u8>(bytes.begin(), bytes.end()), kSample);
  // Build records from scratch; SVAL sizes come from the payload.
  std::vector<u8> payload = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0};
  std::vector<EiRecord> fresh(2);
  fresh[0].format = EIFMT_SVAL;
  fresh[0].attr = EIATTR_MAX_THREADS;
  fresh[0].payload = payload;
  fresh[1].format = EIFMT_HVAL;
  fresh[1].attr = EIATTR_MERCURY_ISA_VERSION;
  fresh[1].value = 0x0101;
  auto enc = encode_eiattrs(arena, fresh);
  ASSERT_EQ(enc.size(), 20u);
  EXPECT_EQ(enc[2], 12);
  auto back = parse_eiattrs(enc);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].payload_u32(2), 3u);
  EXPECT_EQ(back[1].value, 0x0101);
  EXPECT_TRUE(encode_eiattrs(arena, {}).empty());
}

TEST(Eiattr, RejectsMalformed) {
  // Truncated header.
  EXPECT_THROW(parse_eiattrs(std::span(kSample).first(2)), InputError);
  // Truncated SVAL payload.
  EXPECT_THROW(parse_eiattrs(std::span(kSample).first(10)), InputError);
  // Bad formats.
  for (u8 fmt : {u8(0), u8(5), u8(0xff)}) {
    std::vector<u8> bad = {fmt, 0x2f, 0x00, 0x00};
    EXPECT_THROW(parse_eiattrs(bad), InputError) << int(fmt);
  }
  // SVAL size past the end.
  std::vector<u8> big = {0x04, 0x2f, 0xff, 0xff, 0, 0, 0, 0};
  EXPECT_THROW(parse_eiattrs(big), InputError);
  EXPECT_TRUE(parse_eiattrs({}).empty());
}

TEST(Eiattr, FormatsValues) {
  auto recs = parse_eiattrs(kSample);
  SymbolNamer namer = [](u32 i) { return i == 22 ? std::string("_Z5kmainPii") : std::string(); };
  EXPECT_EQ(format_eiattr_value(recs[0], namer), "sym 22 (_Z5kmainPii) regs 24");
  EXPECT_EQ(format_eiattr_value(recs[1], namer), "");
  EXPECT_EQ(format_eiattr_value(recs[2], namer), "1");
  EXPECT_EQ(format_eiattr_value(recs[3], namer), "0xff (255)");
  EXPECT_EQ(format_eiattr_value(recs[4], namer), "offsets 0x70 0x1a0");

  std::vector<u8> cbank = {0x04, 0x0a, 0x08, 0x00, 0x05, 0, 0, 0, 0x10, 0x02, 0x0c, 0x00};
  auto pc = parse_eiattrs(cbank);
  EXPECT_EQ(format_eiattr_value(pc[0], nullptr), "sym 5 offset 0x210 size 0xc");

  // KPARAM_INFO: index 0, ordinal 1, offset 8, size 8, space 0x1f.
  std::vector<u8> kp = {0x04, 0x17, 0x0c, 0x00, 0, 0, 0, 0, 1, 0, 8, 0, 0x00, 0xf0, 0x21, 0x00};
  auto kr = parse_eiattrs(kp);
  EXPECT_EQ(format_eiattr_value(kr[0], nullptr),
            "index 0 ordinal 1 offset 0x8 size 8 space 0x1f flags 0x000");

  std::vector<u8> ext = {0x04, 0x0f, 0x08, 0x00, 7, 0, 0, 0, 9, 0, 0, 0};
  auto er = parse_eiattrs(ext);
  SymbolNamer n2 = [](u32 i) { return i == 7 ? std::string("vprintf") : std::string(); };
  EXPECT_EQ(format_eiattr_value(er[0], n2), "syms 7 (vprintf), 9");

  std::vector<u8> mt = {0x04, 0x05, 0x0c, 0x00, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  EXPECT_EQ(format_eiattr_value(parse_eiattrs(mt)[0], nullptr), "x 256 y 1 z 1");

  // A payload of the wrong size falls back to hex words.
  std::vector<u8> odd = {0x04, 0x2f, 0x06, 0x00, 1, 0, 0, 0, 2, 0};
  EXPECT_EQ(format_eiattr_value(parse_eiattrs(odd)[0], nullptr), "0x1 02 00");
}

// Every EIATTR section of the corpus parses and re-encodes byte for byte.
TEST(Eiattr, CorpusRoundTrip) {
  size_t sections = 0;
  fs::path root = DLINK_TESTDATA;
  ASSERT_TRUE(fs::exists(root));
  std::error_code ec;
  auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const auto &entry = *it;
    if (entry.path().filename().string().starts_with(".")) {
      if (entry.is_directory(ec))
        it.disable_recursion_pending();
      continue;
    }
    if (!entry.is_regular_file(ec) || entry.path().extension() != ".cubin")
      continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::vector<u8> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ElfFile f = read_elf(bytes);
    for (const auto &sec : f.sections) {
      if (sec.type != SHT_CUDA_INFO && sec.type != SHT_CUDA_MERC_INFO &&
          sec.type != SHT_CUDA_COMPAT)
        continue;
      SCOPED_TRACE(entry.path().string() + " " + std::string(sec.name));
      Arena arena;
      auto recs = parse_eiattrs(sec.data);
      auto enc = encode_eiattrs(arena, recs);
      EXPECT_TRUE(std::equal(enc.begin(), enc.end(), sec.data.begin(), sec.data.end()));
      for (const auto &r : recs)
        EXPECT_FALSE(format_eiattr_value(r, nullptr).empty() && r.format == EIFMT_SVAL &&
                     !r.payload.empty());
      sections++;
    }
  }
  EXPECT_GT(sections, 0u);
}

} // namespace
} // namespace dlink
