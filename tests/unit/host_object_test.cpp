// Host object reader (host_object.h) on nvcc/ld/objcopy output under
// testdata/inputs, on synthetic ELF32/ELF64 little- and big-endian objects,
// and on the corruptions nvlink 13.0.88 was measured against
// (docs/notes/inputs.md "Host objects").
#include "dlink/archive.h"
#include "dlink/elf.h"
#include "dlink/fatbin.h"
#include "dlink/host_object.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>

namespace dlink {
namespace {

std::string input(const char *name) { return std::string(DLINK_TESTDATA) + "/inputs/" + name; }

std::vector<u8> load(const char *name) {
  Arena a;
  auto s = read_file_into_arena(a, input(name));
  return {s.begin(), s.end()};
}

std::vector<std::string> strings(const std::vector<std::string_view> &v) {
  return {v.begin(), v.end()};
}

// Checks the shape "_<8 hex>_<len>_<file>_<suffix>" of an rdc module ID.
void expect_module_id(std::string_view id, std::string_view file_part) {
  ASSERT_GT(id.size(), 10u);
  EXPECT_EQ(id[0], '_');
  EXPECT_EQ(id[9], '_');
  for (int i = 1; i < 9; i++)
    EXPECT_TRUE(std::isxdigit(static_cast<unsigned char>(id[i]))) << id;
  EXPECT_NE(id.find(file_part), std::string_view::npos) << id;
}

TEST(HostObject, RdcObject) {
  auto file = load("zstd_rdc.o");
  ASSERT_TRUE(is_host_elf(file));
  HostObject obj = read_host_object(file);
  EXPECT_TRUE(obj.is64);
  EXPECT_FALSE(obj.big_endian);
  EXPECT_TRUE(obj.is_relocatable());
  EXPECT_EQ(obj.machine, 62); // x86-64
  ASSERT_TRUE(obj.has_relfatbin);
  EXPECT_FALSE(obj.has_nv_fatbin);
  EXPECT_TRUE(is_fatbin(obj.relfatbin));
  // One container, exactly as long as the section.
  EXPECT_EQ(read_le<u64>(obj.relfatbin.data() + 8) + 16, obj.relfatbin.size());
  EXPECT_EQ(obj.relfatbin_to_eof.data(), obj.relfatbin.data());
  EXPECT_EQ(obj.relfatbin_to_eof.data() + obj.relfatbin_to_eof.size(), file.data() + file.size());
  ASSERT_TRUE(obj.module_id);
  expect_module_id(*obj.module_id, "_5_k1_cu_");
  EXPECT_TRUE(obj.module_id->ends_with("__Z2k1Pi")); // suffix: first external symbol
  EXPECT_EQ(obj.module_ids.size(), 1u);
  // All six lists exist and are empty (no host code references k1).
  EXPECT_TRUE(obj.host_refs.present);
  EXPECT_TRUE(obj.host_refs.empty());
}

TEST(HostObject, HostReferenceLists) {
  auto file = load("hostrefs.o");
  HostObject obj = read_host_object(file);
  ASSERT_TRUE(obj.module_id);
  std::string id(*obj.module_id);
  expect_module_id(id, "_5_k3_cu_");
  std::string statics = "__nv_static_" + std::to_string(id.size()) + "_" + id + "_*";
  const HostRefs &r = obj.host_refs;
  EXPECT_EQ(strings(r.kernels_external), (std::vector<std::string>{"_Z2k3*", "k3c"}));
  EXPECT_EQ(strings(r.kernels_internal), (std::vector<std::string>{statics + "3k3s*"}));
  EXPECT_EQ(strings(r.device_external), (std::vector<std::string>{"dev_var"}));
  EXPECT_EQ(strings(r.device_internal), (std::vector<std::string>{statics + "static_var"}));
  EXPECT_EQ(strings(r.constant_external), (std::vector<std::string>{"const_var"}));
  EXPECT_TRUE(r.constant_internal.empty());
  EXPECT_FALSE(r.empty());

  // The patterns match the device symbol names of the object's cubin.
  Arena arena;
  auto entries = read_fatbin(arena, obj.relfatbin_to_eof, true);
  ElfFile cubin = read_elf(entries.at(0).payload);
  auto symtab = std::find_if(cubin.sections.begin(), cubin.sections.end(),
                             [](const ElfSection &s) { return s.type == SHT_SYMTAB; });
  ASSERT_NE(symtab, cubin.sections.end());
  std::vector<std::string> matched;
  for (const ElfSymbol &s : read_symbols(cubin, *symtab))
    for (auto list : {&r.kernels_external, &r.kernels_internal, &r.device_external,
                      &r.device_internal, &r.constant_external})
      for (std::string_view p : *list)
        if (host_ref_matches(p, s.name))
          matched.emplace_back(s.name);
  std::sort(matched.begin(), matched.end());
  std::vector<std::string> expected = {"_Z2k3Pi", "const_var", "dev_var", "k3c",
                                       "__nv_static_" + std::to_string(id.size()) + "_" + id +
                                           "__Z3k3sPi",
                                       "__nv_static_" + std::to_string(id.size()) + "_" + id +
                                           "_static_var"};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(matched, expected);
}

TEST(HostObject, LdRelocatableMergesSections) {
  auto file = load("ldr.o");
  HostObject obj = read_host_object(file);
  ASSERT_EQ(obj.module_ids.size(), 2u); // NUL-terminated, zero-padded
  expect_module_id(obj.module_ids[0], "_5_k1_cu_");
  expect_module_id(obj.module_ids[1], "_5_k2_cu_");
  EXPECT_EQ(*obj.module_id, obj.module_ids[0]);
  // Two empty lists concatenated are still empty.
  EXPECT_TRUE(obj.host_refs.present);
  EXPECT_TRUE(obj.host_refs.empty());
  // The section holds two containers; the first is shorter than the section.
  u64 first = read_le<u64>(obj.relfatbin.data() + 8) + 16;
  EXPECT_LT(first, obj.relfatbin.size());
  EXPECT_TRUE(is_fatbin(obj.relfatbin.subspan(first)));
}

TEST(HostObject, WholeProgramAndHostOnlyObjects) {
  auto nonrdc = load("nonrdc.o");
  HostObject n = read_host_object(nonrdc);
  EXPECT_FALSE(n.has_relfatbin); // nvlink links nothing from it
  EXPECT_TRUE(n.has_nv_fatbin);
  EXPECT_TRUE(is_fatbin(n.nv_fatbin));
  ASSERT_TRUE(n.module_id);
  EXPECT_EQ(*n.module_id, "__NV_MODULE_ID");
  EXPECT_FALSE(n.host_refs.present);

  auto host = load("host.o");
  ASSERT_TRUE(is_host_elf(host));
  HostObject h = read_host_object(host);
  EXPECT_FALSE(h.has_relfatbin);
  EXPECT_FALSE(h.has_nv_fatbin);
  EXPECT_FALSE(h.module_id);
  EXPECT_FALSE(h.host_refs.present);
}

TEST(HostObject, Elf32X32ObjectIsReadLikeTheElf64One) {
  auto x32 = load("x32_rdc.o");
  auto x64 = load("zstd_rdc.o");
  HostObject a = read_host_object(x32);
  HostObject b = read_host_object(x64);
  EXPECT_FALSE(a.is64);
  EXPECT_EQ(a.machine, 62);
  ASSERT_TRUE(a.has_relfatbin);
  EXPECT_TRUE(std::equal(a.relfatbin.begin(), a.relfatbin.end(), b.relfatbin.begin(),
                         b.relfatbin.end()));
  EXPECT_EQ(*a.module_id, *b.module_id);
  EXPECT_TRUE(a.host_refs.present);
}

TEST(HostObject, CubinsAreNotHostObjects) {
  Arena arena;
  auto file = load("zstd_rdc.o");
  auto entries = read_fatbin(arena, read_host_object(file).relfatbin_to_eof, true);
  EXPECT_FALSE(is_host_elf(entries[0].payload));
  EXPECT_TRUE(is_cuda_elf(entries[0].payload));
  EXPECT_FALSE(is_host_elf(entries[1].payload)); // PTX
}

// --- corruptions (nvlink: fatal "Could not find fatbin in 'x.o'" or silent) --

size_t shdr(const std::vector<u8> &f, size_t i) { return read_le<u64>(f.data() + 40) + i * 64; }

size_t section_index(const std::vector<u8> &f, u32 type) {
  u16 n = read_le<u16>(f.data() + 60);
  for (size_t i = 0; i < n; i++)
    if (read_le<u32>(f.data() + shdr(f, i) + 4) == type)
      return i;
  return 0;
}

TEST(HostObjectCorrupt, FatalLikeNvlink) {
  auto good = load("zstd_rdc.o");
  auto fails = [](std::vector<u8> f) {
    EXPECT_THROW(read_host_object(f), HostObjectError);
  };
  fails({good.begin(), good.begin() + 0x200}); // section headers cut off
  fails({good.begin(), good.begin() + 60});    // ELF header cut
  auto f = good;
  write_le<u16>(f.data() + 58, 40); // e_shentsize
  fails(f);
  f = good;
  write_le<u64>(f.data() + 40, 0); // e_shoff 0 with sections
  fails(f);
  f = good;
  write_le<u64>(f.data() + shdr(f, 1) + 24, 0x1000000); // .text offset
  fails(f);
  f = good;
  write_le<u64>(f.data() + shdr(f, 1) + 32, 0x1000000); // .text size
  fails(f);
  f = good;
  write_le<u64>(f.data() + shdr(f, 0) + 24, 0x1000000); // SHT_NULL is checked too
  write_le<u64>(f.data() + shdr(f, 0) + 32, 0x10);
  fails(f);
  f = good;
  f[5] = 2; // claims big-endian
  fails(f);
  f = good;
  f[4] = 1; // claims ELF32
  fails(f);
}

TEST(HostObjectCorrupt, AcceptedLikeNvlink) {
  auto good = load("zstd_rdc.o");
  // NOBITS sections are not range-checked.
  auto f = good;
  size_t bss = section_index(f, 8);
  ASSERT_NE(bss, 0u);
  write_le<u64>(f.data() + shdr(f, bss) + 32, 0x1000000);
  write_le<u64>(f.data() + shdr(f, bss) + 24, 0x1000000);
  EXPECT_TRUE(read_host_object(f).has_relfatbin);
  // e_machine, e_version, e_ehsize are not looked at.
  f = good;
  write_le<u16>(f.data() + 18, 183);
  write_le<u32>(f.data() + 20, 0);
  write_le<u16>(f.data() + 52, 0);
  HostObject o = read_host_object(f);
  EXPECT_TRUE(o.has_relfatbin);
  EXPECT_EQ(o.machine, 183);
  // No usable section names or no sections: no device code, no error.
  f = good;
  write_le<u16>(f.data() + 62, 200);
  EXPECT_FALSE(read_host_object(f).has_relfatbin);
  f = good;
  write_le<u16>(f.data() + 60, 0);
  EXPECT_FALSE(read_host_object(f).has_relfatbin);
  // nvlink ignores sh_size of __nv_relfatbin: relfatbin_to_eof still starts
  // at the container.
  f = good;
  HostObject g = read_host_object(good);
  size_t rel = 0;
  for (size_t i = 0; i < read_le<u16>(good.data() + 60); i++)
    if (read_le<u64>(good.data() + shdr(good, i) + 24) ==
        u64(g.relfatbin.data() - good.data()))
      rel = i;
  ASSERT_NE(rel, 0u);
  write_le<u64>(f.data() + shdr(f, rel) + 32, 0);
  write_le<u32>(f.data() + shdr(f, rel) + 4, 8); // and its type
  HostObject z = read_host_object(f);
  EXPECT_TRUE(z.has_relfatbin);
  EXPECT_TRUE(z.relfatbin.empty());
  Arena arena;
  EXPECT_EQ(read_fatbin(arena, z.relfatbin_to_eof, true).size(), 2u);
}

// --- synthetic objects: ELF32/ELF64, LE/BE ---------------------------------

struct Section {
  std::string name;
  u32 type;
  std::string data;
};

void put(std::vector<u8> &b, size_t off, u64 v, size_t n, bool be) {
  if (b.size() < off + n)
    b.resize(off + n);
  for (size_t i = 0; i < n; i++)
    b[off + i] = static_cast<u8>(v >> (8 * (be ? n - 1 - i : i)));
}

std::vector<u8> build_elf(bool is64, bool be, u16 machine, const std::vector<Section> &secs) {
  std::vector<u8> b(is64 ? 64 : 52);
  b[0] = 0x7f, b[1] = 'E', b[2] = 'L', b[3] = 'F';
  b[4] = is64 ? 2 : 1;
  b[5] = be ? 2 : 1;
  b[6] = 1;
  put(b, 16, 1, 2, be); // ET_REL
  put(b, 18, machine, 2, be);
  put(b, 20, 1, 4, be);
  std::string shstr(1, '\0');
  std::vector<u32> name_off;
  for (const auto &s : secs) {
    name_off.push_back(static_cast<u32>(shstr.size()));
    shstr += s.name + '\0';
  }
  u32 shstr_name = static_cast<u32>(shstr.size());
  shstr += std::string(".shstrtab") + '\0';
  std::vector<u64> offs;
  for (const auto &s : secs) {
    offs.push_back(b.size());
    b.insert(b.end(), s.data.begin(), s.data.end());
  }
  u64 shstr_off = b.size();
  b.insert(b.end(), shstr.begin(), shstr.end());
  while (b.size() % 8)
    b.push_back(0);
  u64 shoff = b.size();
  size_t esz = is64 ? 64 : 40;
  size_t n = secs.size() + 2;
  b.resize(shoff + n * esz);
  auto sh = [&](size_t i, u32 name, u32 type, u64 off, u64 size) {
    size_t o = shoff + i * esz;
    put(b, o, name, 4, be);
    put(b, o + 4, type, 4, be);
    if (is64) {
      put(b, o + 24, off, 8, be);
      put(b, o + 32, size, 8, be);
    } else {
      put(b, o + 16, off, 4, be);
      put(b, o + 20, size, 4, be);
    }
  };
  for (size_t i = 0; i < secs.size(); i++)
    sh(i + 1, name_off[i], secs[i].type, offs[i], secs[i].data.size());
  sh(n - 1, shstr_name, SHT_STRTAB, shstr_off, shstr.size());
  if (is64) {
    put(b, 40, shoff, 8, be);
    put(b, 58, esz, 2, be);
    put(b, 60, n, 2, be);
    put(b, 62, n - 1, 2, be);
  } else {
    put(b, 32, shoff, 4, be);
    put(b, 46, esz, 2, be);
    put(b, 48, n, 2, be);
    put(b, 50, n - 1, 2, be);
  }
  return b;
}

class SyntheticHostObject : public ::testing::TestWithParam<std::tuple<bool, bool>> {};

TEST_P(SyntheticHostObject, FindsDeviceSectionsAnyClassAndEndianness) {
  auto [is64, be] = GetParam();
  // An empty container: magic, version 1, header size 0x10, payload 0.
  std::string fatbin = std::string("\x50\xed\x55\xba\x01\x00\x10\x00", 8) + std::string(8, '\0');
  std::vector<Section> secs = {
      {".text", SHT_PROGBITS, "\xc3"},
      {"__nv_module_id", SHT_PROGBITS, std::string("_0123abcd_3_x_cu_f\0\0\0\0", 22)},
      {"__nv_relfatbin", SHT_PROGBITS, fatbin},
      {".nvHRKE", SHT_PROGBITS, std::string("_Z1k*\0kc\0", 9)},
      {".nvHRKI", SHT_PROGBITS, std::string("\0", 1)},
      {".nv_fatbin", SHT_PROGBITS, fatbin},
      {".bss", SHT_NOBITS, ""},
  };
  auto bytes = build_elf(is64, be, be ? 21 : 183, secs);
  ASSERT_TRUE(is_host_elf(bytes));
  HostObject o = read_host_object(bytes);
  EXPECT_EQ(o.is64, is64);
  EXPECT_EQ(o.big_endian, be);
  EXPECT_EQ(o.machine, be ? 21 : 183);
  EXPECT_TRUE(o.is_relocatable());
  ASSERT_TRUE(o.has_relfatbin);
  EXPECT_EQ(std::string(o.relfatbin.begin(), o.relfatbin.end()), fatbin);
  EXPECT_TRUE(o.has_nv_fatbin);
  ASSERT_TRUE(o.module_id);
  EXPECT_EQ(*o.module_id, "_0123abcd_3_x_cu_f");
  EXPECT_EQ(o.module_ids.size(), 1u);
  EXPECT_EQ(strings(o.host_refs.kernels_external), (std::vector<std::string>{"_Z1k*", "kc"}));
  EXPECT_TRUE(o.host_refs.kernels_internal.empty());
  EXPECT_TRUE(o.host_refs.present);
  Arena arena;
  EXPECT_TRUE(read_fatbin(arena, o.relfatbin_to_eof, true).empty());
}

INSTANTIATE_TEST_SUITE_P(AllLayouts, SyntheticHostObject,
                         ::testing::Combine(::testing::Bool(), ::testing::Bool()));

TEST(HostObject, SplitNulList) {
  auto list = [](std::string s) {
    std::vector<u8> b(s.begin(), s.end());
    return strings(split_nul_list(b));
  };
  EXPECT_TRUE(list(std::string("\0", 1)).empty());
  EXPECT_TRUE(list("").empty());
  EXPECT_EQ(list(std::string("a\0bc\0", 5)), (std::vector<std::string>{"a", "bc"}));
  EXPECT_EQ(list(std::string("a\0\0\0\0b", 6)), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(list("unterminated"), (std::vector<std::string>{"unterminated"}));
}

TEST(HostObject, GlobPatterns) {
  EXPECT_TRUE(host_ref_matches("_Z11kern_extern*", "_Z11kern_externPi"));
  EXPECT_TRUE(host_ref_matches("_Z11kern_extern*", "_Z11kern_extern"));
  EXPECT_FALSE(host_ref_matches("_Z11kern_extern*", "_Z11kern_exter"));
  EXPECT_TRUE(host_ref_matches("ck", "ck"));
  EXPECT_FALSE(host_ref_matches("ck", "ck2"));
  EXPECT_TRUE(host_ref_matches("__nv_static_25__222af4a0_4_h_cu_16e0d58b_*11kern_static*",
                               "__nv_static_25__222af4a0_4_h_cu_16e0d58b__Z11kern_staticPi"));
  EXPECT_TRUE(host_ref_matches("a*b*c", "aXbYbZc"));
  EXPECT_FALSE(host_ref_matches("a*b*c", "aXbYbZ"));
  EXPECT_TRUE(host_ref_matches("*", ""));
  EXPECT_TRUE(host_ref_matches("a?c", "a?c")); // only '*' is special
  EXPECT_FALSE(host_ref_matches("a?c", "abc"));
}

} // namespace
} // namespace dlink
