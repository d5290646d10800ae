// Fatbin reader (fatbin.h) on real nvcc output under testdata/inputs, on
// corrupted copies of it, and nvlink's entry selection as measured against
// nvlink 13.0.88 (docs/notes/inputs.md).
#include "dlink/archive.h"
#include "dlink/elf.h"
#include "dlink/fatbin.h"
#include "dlink/host_object.h"

#include <gtest/gtest.h>
#include <lz4.h>
#include <zstd.h>

#include <unistd.h>

#include <cstdlib>
#include <string>

namespace dlink {
namespace {

std::string input(const char *name) { return std::string(DLINK_TESTDATA) + "/inputs/" + name; }

std::vector<u8> load(const char *name) {
  Arena a;
  auto s = read_file_into_arena(a, input(name));
  return {s.begin(), s.end()};
}

// The __nv_relfatbin bytes of a host object as nvlink reads them (from the
// section offset to the end of the file).
std::span<const u8> relfatbin_of(const std::vector<u8> &file) {
  HostObject obj = read_host_object(file);
  EXPECT_TRUE(obj.has_relfatbin);
  return obj.relfatbin_to_eof;
}

std::vector<FatbinEntry> entries_of(Arena &arena, const char *name,
                                    std::vector<u8> &keep, bool first_only = true) {
  keep = load(name);
  if (is_fatbin(keep))
    return read_fatbin(arena, keep, first_only);
  if (first_only)
    return read_fatbin(arena, relfatbin_of(keep), true);
  // Every container: parse the exact section (after it come other sections).
  return read_fatbin(arena, read_host_object(keep).relfatbin, false);
}

bool same_bytes(std::span<const u8> a, std::span<const u8> b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

// --- real inputs ---------------------------------------------------------

TEST(Fatbin, ZstdRdcObject) {
  Arena arena;
  std::vector<u8> file;
  auto entries = entries_of(arena, "zstd_rdc.o", file);
  ASSERT_EQ(entries.size(), 2u);

  const FatbinEntry &elf = entries[0];
  EXPECT_EQ(elf.kind, FATBIN_KIND_ELF);
  EXPECT_EQ(elf.unknown_02, 0x0101);
  EXPECT_EQ(elf.header_size, 0x40u);
  EXPECT_EQ(elf.sm, 90u);
  EXPECT_EQ(elf.flags, 0x8011u);
  EXPECT_TRUE(elf.zstd());
  EXPECT_FALSE(elf.lz4());
  EXPECT_TRUE(elf.compressed());
  EXPECT_TRUE(elf.is_64bit());
  EXPECT_FALSE(elf.debug());
  EXPECT_EQ(elf.major, 1);
  EXPECT_EQ(elf.minor, 8);
  EXPECT_EQ(elf.padded_size, align_to(elf.compressed_size, 8));
  EXPECT_EQ(elf.stored.size(), elf.compressed_size);
  EXPECT_EQ(elf.stored[0], 0x28); // zstd frame magic 28 b5 2f fd
  EXPECT_EQ(elf.stored[3], 0xfd);
  EXPECT_EQ(elf.payload.size(), elf.uncompressed_size);
  EXPECT_EQ(elf.arch_name(), "sm_90");
  EXPECT_TRUE(elf.name.empty());
  EXPECT_TRUE(elf.ptxas_options.empty());
  ASSERT_TRUE(is_cuda_elf(elf.payload));
  ElfFile cubin = read_elf(elf.payload);
  EXPECT_EQ(cubin.type, ET_REL);
  EXPECT_EQ(cubin.sm(), 90u);
  EXPECT_TRUE(cubin.section_named(".text._Z2k1Pi"));

  const FatbinEntry &ptx = entries[1];
  EXPECT_EQ(ptx.kind, FATBIN_KIND_PTX);
  EXPECT_EQ(ptx.sm, 90u);
  EXPECT_EQ(ptx.major, 9);
  EXPECT_EQ(ptx.minor, 0);
  EXPECT_EQ(ptx.arch_name(), "compute_90");
  EXPECT_EQ(ptx.ptxas_options, "--compile-only  ");
  EXPECT_EQ(ptx.options_offset, 0x40u);
  EXPECT_EQ(ptx.offset, elf.offset + elf.header_size + elf.padded_size);
  EXPECT_NE(ptx.ptx_text().find(".target sm_90"), std::string_view::npos);
  EXPECT_NE(ptx.ptx_text().find(".entry _Z2k1Pi"), std::string_view::npos);
  EXPECT_TRUE(elf.ptx_text().empty());
}

TEST(Fatbin, Lz4AndRawObjectsDecodeToTheSamePayloads) {
  Arena arena;
  std::vector<u8> fz, fl, fr;
  auto z = entries_of(arena, "zstd_rdc.o", fz);
  auto l = entries_of(arena, "lz4_rdc.o", fl);
  auto r = entries_of(arena, "raw_rdc.o", fr);
  ASSERT_EQ(l.size(), 2u);
  ASSERT_EQ(r.size(), 2u);

  EXPECT_EQ(l[0].flags, 0x2011u);
  EXPECT_TRUE(l[0].lz4());
  EXPECT_TRUE(l[0].compressed());
  EXPECT_EQ(l[0].uncompressed_size, z[0].uncompressed_size);
  EXPECT_EQ(r[0].flags, 0x11u);
  EXPECT_FALSE(r[0].compressed());
  EXPECT_EQ(r[0].compressed_size, 0u);
  EXPECT_EQ(r[0].uncompressed_size, 0u);
  EXPECT_TRUE(same_bytes(r[0].payload, r[0].stored));

  // One compile, three encodings: identical cubins and PTX text.
  EXPECT_TRUE(same_bytes(z[0].payload, l[0].payload));
  EXPECT_TRUE(same_bytes(z[0].payload, r[0].payload));
  EXPECT_EQ(z[1].ptx_text(), l[1].ptx_text());
  EXPECT_EQ(z[1].ptx_text(), r[1].ptx_text());
  EXPECT_EQ(l[1].ptxas_options, "--compile-only  ");
  EXPECT_EQ(r[1].ptxas_options, "--compile-only  ");
  // Raw PTX is NUL-terminated and padded to 8.
  EXPECT_EQ(r[1].payload.size() % 8, 0u);
  EXPECT_EQ(r[1].payload[z[1].ptx_text().size()], 0);
}

TEST(Fatbin, MultiArchObjectKeepsGencodeOrder) {
  Arena arena;
  std::vector<u8> file;
  auto e = entries_of(arena, "multiarch.o", file);
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].arch_name(), "sm_80");
  EXPECT_EQ(e[1].arch_name(), "sm_90");
  EXPECT_EQ(e[2].arch_name(), "compute_90");
  for (int i = 0; i < 2; i++)
    EXPECT_EQ(read_elf(e[i].payload).sm(), e[i].sm);
}

TEST(Fatbin, VariantsFatbinFile) {
  Arena arena;
  std::vector<u8> file;
  auto e = entries_of(arena, "variants.fatbin", file);
  ASSERT_TRUE(is_fatbin(file));
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0].arch_name(), "sm_90a");
  EXPECT_TRUE(e[0].arch_specific());
  EXPECT_EQ(e[0].flags, 0x108011u);
  EXPECT_EQ(e[0].sm, 90u); // no suffix in the sm field
  EXPECT_EQ(e[1].arch_name(), "compute_90a");
  EXPECT_EQ(e[2].arch_name(), "sm_100f");
  EXPECT_TRUE(e[2].family());
  EXPECT_FALSE(e[2].arch_specific());
  EXPECT_EQ(e[2].flags, 0x1208011u);
  EXPECT_EQ(e[3].arch_name(), "compute_75");
  EXPECT_EQ(e[3].variant(), Arch::Variant::None);

  // sm_100+ ELF entries carry the cubin's .nv.compat bytes behind one 0x00
  // byte (data_len = section size, so the section's last byte, 0, falls in
  // the header padding).
  EXPECT_EQ(e[2].header_size, 0x70u);
  EXPECT_EQ(e[2].options_data.size(), 0x24u);
  ElfFile cubin = read_elf(e[2].payload);
  EXPECT_EQ(cubin.sm(), 100u);
  const ElfSection *compat = cubin.section_named(".nv.compat");
  ASSERT_TRUE(compat);
  ASSERT_EQ(compat->data.size(), 0x24u);
  EXPECT_EQ(e[2].options_data[0], 0);
  EXPECT_TRUE(same_bytes(compat->data.first(0x23), e[2].options_data.subspan(1)));
  EXPECT_TRUE(e[2].ptxas_options.empty());

  // The file is exactly one container.
  EXPECT_EQ(read_le<u64>(file.data() + 8) + 16, file.size());
}

TEST(Fatbin, LtoIrEntryIsOpaque) {
  Arena arena;
  std::vector<u8> file;
  auto e = entries_of(arena, "lto.fatbin", file);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_TRUE(e[0].is_ltoir());
  EXPECT_EQ(e[0].kind, 8);
  EXPECT_EQ(e[0].arch_name(), "lto_90");
  EXPECT_EQ(e[0].flags, 0x18011u);
  EXPECT_FALSE(e[0].compressed());
  EXPECT_NE(e[0].unknown_30, 0u);
  EXPECT_EQ(e[0].cicc_options, "-ftz=0 -prec_div=1 -prec_sqrt=1 -fmad=1 ");
  EXPECT_TRUE(same_bytes(e[0].payload, e[0].stored));
}

TEST(Fatbin, DebugPtxEntryHasNameAndOptions) {
  Arena arena;
  std::vector<u8> file;
  auto e = entries_of(arena, "debug_ptx.o", file);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_TRUE(e[0].debug());
  EXPECT_EQ(e[0].flags, 0x8013u);
  EXPECT_EQ(e[0].name, "k2.cu");
  EXPECT_EQ(e[0].name_offset, 0x40u);
  EXPECT_EQ(e[0].options_offset, 0x48u);
  EXPECT_EQ(e[0].ptxas_options, "--compile-only  -g --dont-merge-basicblocks --return-at-end ");
}

TEST(Fatbin, LdRelocatableHasTwoContainers) {
  Arena arena;
  std::vector<u8> ldr, k1, k2;
  auto first = entries_of(arena, "ldr.o", ldr, true);
  auto all = entries_of(arena, "ldr.o", ldr, false);
  auto e1 = entries_of(arena, "zstd_rdc.o", k1);
  auto e2 = entries_of(arena, "k2.o", k2);
  ASSERT_EQ(first.size(), 2u);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[1].container_index, 0u);
  EXPECT_EQ(all[2].container_index, 1u);
  // ld -r a b: the first container is a's, the second b's.
  EXPECT_TRUE(same_bytes(first[0].payload, e1[0].payload));
  EXPECT_TRUE(same_bytes(all[2].payload, e2[0].payload));
  EXPECT_EQ(all[3].ptx_text(), e2[1].ptx_text());
  // From the section offset to the end of the file, only the first container
  // can be walked: other sections follow the fatbin.
  HostObject obj = read_host_object(ldr);
  EXPECT_THROW(read_fatbin(arena, obj.relfatbin_to_eof, false), FatbinError);
  EXPECT_EQ(read_fatbin(arena, obj.relfatbin_to_eof, true).size(), 2u);
}

TEST(Fatbin, NonRdcObjectHasNvFatbinWithRawCubin) {
  Arena arena;
  std::vector<u8> file = load("nonrdc.o");
  HostObject obj = read_host_object(file);
  EXPECT_FALSE(obj.has_relfatbin);
  ASSERT_TRUE(obj.has_nv_fatbin);
  auto e = read_fatbin(arena, obj.nv_fatbin, true);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_FALSE(e[0].compressed());
  EXPECT_EQ(read_elf(e[0].payload).type, ET_EXEC);
  EXPECT_EQ(e[1].ptxas_options, ""); // whole-program PTX
  EXPECT_TRUE(e[1].zstd());
}

// --- decompressors ------------------------------------------------------

std::vector<u8> sample_bytes(size_t n) {
  std::vector<u8> v(n);
  for (size_t i = 0; i < n; i++)
    v[i] = static_cast<u8>((i * 7) % 13 + (i / 100));
  return v;
}

TEST(Fatbin, Lz4BlockRoundTripAndExactSize) {
  Arena arena;
  auto src = sample_bytes(5000);
  std::vector<char> comp(LZ4_compressBound(int(src.size())));
  int n = LZ4_compress_default(reinterpret_cast<const char *>(src.data()), comp.data(),
                               int(src.size()), int(comp.size()));
  ASSERT_GT(n, 0);
  std::span<const u8> c(reinterpret_cast<const u8 *>(comp.data()), size_t(n));
  EXPECT_TRUE(same_bytes(decompress_lz4_block(arena, c, src.size()), src));
  EXPECT_THROW(decompress_lz4_block(arena, c, src.size() + 1), FatbinError);
  EXPECT_THROW(decompress_lz4_block(arena, c, src.size() - 1), FatbinError);
  EXPECT_THROW(decompress_lz4_block(arena, c.first(c.size() - 1), src.size()), FatbinError);
  EXPECT_THROW(decompress_lz4_block(arena, c, u64(1) << 40), FatbinError);
  EXPECT_THROW(decompress_lz4_block(arena, {}, 10), FatbinError);
}

TEST(Fatbin, ZstdRoundTripAndExactSize) {
  Arena arena;
  auto src = sample_bytes(5000);
  std::vector<u8> comp(ZSTD_compressBound(src.size()));
  size_t n = ZSTD_compress(comp.data(), comp.size(), src.data(), src.size(), 3);
  ASSERT_FALSE(ZSTD_isError(n));
  std::span<const u8> c(comp.data(), n);
  EXPECT_TRUE(same_bytes(decompress_zstd(arena, c, src.size()), src));
  try {
    decompress_zstd(arena, c, src.size() + 1);
    ADD_FAILURE() << "size mismatch accepted";
  } catch (const FatbinError &e) {
    EXPECT_EQ(e.kind(), FatbinError::Kind::UncompressFailed);
    EXPECT_EQ(e.entry_flags(), FATBIN_FLAG_ZSTD);
  }
  EXPECT_THROW(decompress_zstd(arena, c, 0), FatbinError);
  EXPECT_THROW(decompress_zstd(arena, c.first(n - 3), src.size()), FatbinError);
  EXPECT_THROW(decompress_zstd(arena, c, u64(1) << 40), FatbinError);
}

// --- corrupted inputs ---------------------------------------------------

// A standalone copy of zstd_rdc.o's container (offset 0 = container header).
std::vector<u8> zstd_container() {
  std::vector<u8> file = load("zstd_rdc.o");
  HostObject obj = read_host_object(file);
  return {obj.relfatbin.begin(), obj.relfatbin.end()};
}

FatbinError::Kind error_kind(std::span<const u8> bytes, bool decompress = true) {
  Arena arena;
  FatbinReadOptions o;
  o.decompress = decompress;
  try {
    read_fatbin(arena, bytes, o);
  } catch (const FatbinError &e) {
    return e.kind();
  }
  ADD_FAILURE() << "no FatbinError";
  return FatbinError::Kind::BadEntry;
}

TEST(FatbinCorrupt, ContainerHeader) {
  auto c = zstd_container();
  auto bad = c;
  write_le<u32>(bad.data(), 0xdeadbeef);
  EXPECT_EQ(error_kind(bad), FatbinError::Kind::BadMagic);
  EXPECT_FALSE(is_fatbin(bad));
  bad = c;
  write_le<u16>(bad.data() + 4, 2); // nvlink: "Binary format for key='0', ident='' ..."
  EXPECT_EQ(error_kind(bad), FatbinError::Kind::BadVersion);
  EXPECT_EQ(error_kind(std::span<const u8>(c).first(10)), FatbinError::Kind::Truncated);
  EXPECT_EQ(error_kind(std::span<const u8>(c).first(0x30)), FatbinError::Kind::Truncated);
  // A payload size far past the end: the entries that exist are read (nvlink
  // crashes); a partial entry header after them is an error.
  bad = c;
  write_le<u64>(bad.data() + 8, 0x100000);
  {
    Arena arena;
    FatbinReadOptions lazy;
    lazy.decompress = false;
    EXPECT_EQ(read_fatbin(arena, bad, lazy).size(), 2u);
  }
  bad.insert(bad.end(), 0x20, 0);
  EXPECT_EQ(error_kind(bad, false), FatbinError::Kind::Truncated);
  // payload size 0: no entries (nvlink then warns "SM Arch ... not found").
  bad = c;
  write_le<u64>(bad.data() + 8, 0);
  Arena arena;
  EXPECT_TRUE(read_fatbin(arena, bad, true).empty());
}

TEST(FatbinCorrupt, EntryHeader) {
  auto c = zstd_container();
  auto bad = c;
  write_le<u32>(bad.data() + 0x10 + 4, 0); // header size 0 (nvlink crashes)
  EXPECT_EQ(error_kind(bad), FatbinError::Kind::BadEntry);
  // Unknown kinds, odd flags, versions and out-of-range name/option offsets
  // are accepted, as nvlink does.
  bad = c;
  write_le<u16>(bad.data() + 0x10, 5);
  write_le<u32>(bad.data() + 0x10 + 0x20, 0x100000);
  write_le<u32>(bad.data() + 0x10 + 0x14, 0x100000);
  write_le<u16>(bad.data() + 0x10 + 0x1a, 2);
  Arena arena;
  auto e = read_fatbin(arena, bad, true);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].kind, 5);
  EXPECT_TRUE(e[0].name.empty());
  EXPECT_TRUE(e[0].options_data.empty());
}

TEST(FatbinCorrupt, CompressionFailures) {
  auto c = zstd_container();
  const size_t e0 = 0x10, p0 = e0 + 0x40;
  auto expect_uncompress = [](std::vector<u8> bytes, u64 flags) {
    Arena arena;
    try {
      read_fatbin(arena, bytes, true);
      ADD_FAILURE() << "accepted";
    } catch (const FatbinError &e) {
      EXPECT_EQ(e.kind(), FatbinError::Kind::UncompressFailed);
      EXPECT_EQ(e.entry_flags() & (FATBIN_FLAG_LZ4 | FATBIN_FLAG_ZSTD), flags);
    }
  };
  auto bad = c;
  write_le<u64>(bad.data() + p0 + 0x20, 0x4141414141414141ull);
  expect_uncompress(bad, FATBIN_FLAG_ZSTD);
  for (u64 usize : {u64(0), u64(0x100), u64(0x100000)}) {
    bad = c;
    write_le<u64>(bad.data() + e0 + 0x38, usize);
    expect_uncompress(bad, FATBIN_FLAG_ZSTD);
  }
  for (u32 csize : {0u, 0x100u, 0x10000u}) {
    bad = c;
    write_le<u32>(bad.data() + e0 + 0x10, csize);
    expect_uncompress(bad, FATBIN_FLAG_ZSTD);
  }
  // zstd data flagged LZ4 (nvlink: one "Uncompress failed", then not found).
  bad = c;
  write_le<u64>(bad.data() + e0 + 0x28, 0x2011);
  expect_uncompress(bad, FATBIN_FLAG_LZ4);
  // Both bits: LZ4 is tried (nvlink behaves as for LZ4).
  bad = c;
  write_le<u64>(bad.data() + e0 + 0x28, 0xa011);
  expect_uncompress(bad, FATBIN_FLAG_LZ4);
  // Flags cleared: the zstd bytes are taken as a raw payload.
  bad = c;
  write_le<u64>(bad.data() + e0 + 0x28, 0x11);
  Arena arena;
  auto e = read_fatbin(arena, bad, true);
  EXPECT_FALSE(e[0].compressed());
  EXPECT_EQ(e[0].payload.size(), e[0].padded_size);
  EXPECT_FALSE(is_cuda_elf(e[0].payload));
}

TEST(FatbinCorrupt, LazyDecompressionOnlyFailsForTheEntryUsed) {
  auto c = zstd_container();
  Arena arena;
  auto bad = c;
  // Corrupt the PTX entry's zstd frame.
  auto e = read_fatbin(arena, c, true);
  u64 ptx_data = e[1].offset + e[1].header_size;
  write_le<u32>(bad.data() + ptx_data, 0);
  FatbinReadOptions lazy;
  lazy.decompress = false;
  auto entries = read_fatbin(arena, bad, lazy);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_FALSE(entries[0].decompressed);
  EXPECT_TRUE(entries[0].payload.empty());
  decompress_fatbin_entry(arena, entries[0]);
  EXPECT_TRUE(is_cuda_elf(entries[0].payload));
  EXPECT_THROW(decompress_fatbin_entry(arena, entries[1]), FatbinError);
  EXPECT_THROW(read_fatbin(arena, bad, true), FatbinError);

  // Cut inside the last entry's payload: nvlink links such a .fatbin when the
  // truncated entry is not the one selected.
  std::span<const u8> cut = std::span<const u8>(c).first(ptx_data + 16);
  auto t = read_fatbin(arena, cut, lazy);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_FALSE(t[0].truncated);
  EXPECT_TRUE(t[1].truncated);
  EXPECT_EQ(t[1].stored.size(), 16u);
  decompress_fatbin_entry(arena, t[0]);
  EXPECT_THROW(decompress_fatbin_entry(arena, t[1]), FatbinError);
}

TEST(FatbinCorrupt, TrailingBytesAfterContainers) {
  auto c = zstd_container();
  Arena arena;
  auto padded = c;
  padded.insert(padded.end(), 24, 0);
  EXPECT_EQ(read_fatbin(arena, padded, false).size(), 2u);
  auto two = c;
  two.insert(two.end(), 8, 0); // alignment gap
  two.insert(two.end(), c.begin(), c.end());
  EXPECT_EQ(read_fatbin(arena, two, false).size(), 4u);
  EXPECT_EQ(read_fatbin(arena, two, true).size(), 2u);
  auto garbage = c;
  garbage.insert(garbage.end(), {'Q', 'Q', 'Q', 'Q'});
  // nvlink ignores anything after the first container of a .fatbin file.
  EXPECT_EQ(read_fatbin(arena, garbage, true).size(), 2u);
  EXPECT_THROW(read_fatbin(arena, garbage, false), FatbinError);
}

// A container with header and payload sizes 0 does not advance: reading
// every container must stop (found by fuzz_fatbin: the reader looped).
TEST(FatbinCorrupt, ZeroSizeContainerEndsTheContainerList) {
  std::vector<u8> c(kFatbinHeaderSize + 8, 0);
  write_le<u32>(c.data(), kFatbinMagic);
  write_le<u16>(c.data() + 4, 1);
  c.back() = 1; // bytes after the container
  EXPECT_EXIT(
      {
        ::alarm(10); // the failure mode is an endless loop
        Arena arena;
        bool threw = false;
        try {
          read_fatbin(arena, c, false);
        } catch (const FatbinError &e) {
          threw = e.kind() == FatbinError::Kind::BadEntry;
        }
        std::exit(threw ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
  Arena arena;
  EXPECT_TRUE(read_fatbin(arena, c, true).empty()); // nvlink's view: no entries
}

// --- selection (measured with nvlink 13.0.88, docs/notes/inputs.md) -------

FatbinEntry make_entry(std::string_view spec, int tag) {
  FatbinEntry e;
  auto colon = spec.find(':');
  e.kind = spec.substr(0, colon) == "elf" ? FATBIN_KIND_ELF : FATBIN_KIND_PTX;
  std::string_view arch = spec.substr(colon + 1);
  e.flags = FATBIN_FLAG_64BIT | FATBIN_FLAG_LINUX;
  if (arch.back() == 'a') {
    e.flags |= FATBIN_FLAG_ARCH_SPECIFIC;
    arch.remove_suffix(1);
  } else if (arch.back() == 'f') {
    e.flags |= FATBIN_FLAG_FAMILY;
    arch.remove_suffix(1);
  }
  e.sm = static_cast<u32>(std::stoul(std::string(arch)));
  e.offset = static_cast<u64>(tag); // identifies the entry
  return e;
}

// Returns "index" of the chosen entry or -1.
int choose(const char *target, std::initializer_list<std::string_view> specs) {
  std::vector<FatbinEntry> entries;
  int i = 0;
  for (auto s : specs)
    entries.push_back(make_entry(s, i++));
  auto arch = parse_arch(target);
  EXPECT_TRUE(arch) << target;
  const FatbinEntry *e = select_fatbin_entry(entries, *arch);
  return e ? static_cast<int>(e->offset) : -1;
}

TEST(FatbinSelect, ExactAndBinaryCompatibleElf) {
  EXPECT_EQ(choose("sm_90", {"elf:90", "ptx:90"}), 0);
  EXPECT_EQ(choose("sm_90", {"ptx:90", "elf:90"}), 1);
  EXPECT_EQ(choose("sm_86", {"elf:80"}), 0);
  EXPECT_EQ(choose("sm_89", {"elf:80"}), 0);
  EXPECT_EQ(choose("sm_89", {"elf:86"}), 0);
  EXPECT_EQ(choose("sm_89", {"elf:80", "elf:86"}), 1);
  EXPECT_EQ(choose("sm_86", {"elf:86", "elf:80"}), 0);
  EXPECT_EQ(choose("sm_103", {"elf:100"}), 0);
  EXPECT_EQ(choose("sm_121", {"elf:120"}), 0);
  // Not compatible in nvlink's eyes.
  for (auto [t, e] : {std::pair{"sm_87", "elf:80"}, {"sm_87", "elf:86"}, {"sm_88", "elf:86"},
                      {"sm_89", "elf:87"}, {"sm_89", "elf:88"}, {"sm_86", "elf:87"},
                      {"sm_80", "elf:75"}, {"sm_90", "elf:80"}, {"sm_100", "elf:90"},
                      {"sm_110", "elf:100"}, {"sm_120", "elf:100"}, {"sm_100", "elf:103"}})
    EXPECT_EQ(choose(t, {e}), -1) << t << " " << e;
}

TEST(FatbinSelect, PtxJitCandidates) {
  EXPECT_EQ(choose("sm_90", {"ptx:80"}), 0);
  EXPECT_EQ(choose("sm_90", {"ptx:80", "ptx:86"}), 1);
  EXPECT_EQ(choose("sm_90", {"ptx:86", "ptx:80"}), 0);
  EXPECT_EQ(choose("sm_90", {"ptx:75", "ptx:90", "ptx:80"}), 1);
  EXPECT_EQ(choose("sm_120", {"ptx:100", "ptx:90"}), 0);
  EXPECT_EQ(choose("sm_110", {"ptx:100"}), 0);
  EXPECT_EQ(choose("sm_90", {"ptx:100"}), -1);
  EXPECT_EQ(choose("sm_100", {"ptx:103"}), -1);
  // Higher arch first, even PTX over an older cubin.
  EXPECT_EQ(choose("sm_86", {"elf:80", "ptx:86"}), 1);
  EXPECT_EQ(choose("sm_89", {"elf:80", "ptx:86"}), 1);
  EXPECT_EQ(choose("sm_89", {"elf:86", "ptx:80"}), 0);
  EXPECT_EQ(choose("sm_89", {"ptx:89", "elf:86"}), 0);
  EXPECT_EQ(choose("sm_89", {"ptx:80", "elf:80"}), 1);
  EXPECT_EQ(choose("sm_80", {"ptx:75", "elf:75"}), 0);
  EXPECT_EQ(choose("sm_103", {"elf:100", "ptx:103"}), 1);
  EXPECT_EQ(choose("sm_103", {"elf:100f", "ptx:100"}), 0);
}

TEST(FatbinSelect, ArchSpecificAndFamilyVariants) {
  // ELF of the same SM fits whatever the variants.
  EXPECT_EQ(choose("sm_90", {"elf:90a"}), 0);
  EXPECT_EQ(choose("sm_90a", {"elf:90"}), 0);
  EXPECT_EQ(choose("sm_100", {"elf:100a"}), 0);
  EXPECT_EQ(choose("sm_100a", {"elf:100f"}), 0);
  EXPECT_EQ(choose("sm_100f", {"elf:100a"}), 0);
  EXPECT_EQ(choose("sm_100f", {"elf:100"}), 0);
  // Older ELF: family and plain yes, arch-specific no.
  EXPECT_EQ(choose("sm_103", {"elf:100f"}), 0);
  EXPECT_EQ(choose("sm_103a", {"elf:100f"}), 0);
  EXPECT_EQ(choose("sm_103a", {"elf:100"}), 0);
  EXPECT_EQ(choose("sm_103f", {"elf:100"}), 0);
  EXPECT_EQ(choose("sm_103", {"elf:100a"}), -1);
  EXPECT_EQ(choose("sm_103a", {"elf:100a"}), -1);
  EXPECT_EQ(choose("sm_103f", {"elf:100a"}), -1);
  EXPECT_EQ(choose("sm_110", {"elf:100f"}), -1);
  EXPECT_EQ(choose("sm_121", {"elf:100f"}), -1);
  EXPECT_EQ(choose("sm_121", {"elf:120f"}), 0);
  // Preference a > f > plain at the same SM, in any order.
  EXPECT_EQ(choose("sm_90", {"elf:90", "elf:90a"}), 1);
  EXPECT_EQ(choose("sm_90", {"elf:90a", "elf:90"}), 0);
  EXPECT_EQ(choose("sm_100", {"elf:100", "elf:100f"}), 1);
  EXPECT_EQ(choose("sm_100", {"elf:100f", "elf:100a"}), 1);
  EXPECT_EQ(choose("sm_100", {"elf:100a", "elf:100f", "elf:100"}), 0);
  EXPECT_EQ(choose("sm_100a", {"elf:100", "elf:100f"}), 1);
  EXPECT_EQ(choose("sm_121", {"elf:120", "elf:120f"}), 1);
  EXPECT_EQ(choose("sm_103", {"elf:103a", "elf:100"}), 0);
  // ELF beats PTX of the same SM whatever the variants.
  EXPECT_EQ(choose("sm_90a", {"ptx:90a", "elf:90"}), 1);
  EXPECT_EQ(choose("sm_90", {"elf:90a", "ptx:90"}), 0);
  // PTX: arch-specific only for the same 'a' target.
  EXPECT_EQ(choose("sm_90", {"ptx:90a"}), -1);
  EXPECT_EQ(choose("sm_90a", {"ptx:90a"}), 0);
  EXPECT_EQ(choose("sm_90a", {"ptx:90"}), 0);
  EXPECT_EQ(choose("sm_100", {"ptx:100a"}), -1);
  EXPECT_EQ(choose("sm_100f", {"ptx:100a"}), -1);
  EXPECT_EQ(choose("sm_103", {"ptx:100a"}), -1);
  EXPECT_EQ(choose("sm_103a", {"ptx:100a"}), -1);
  EXPECT_EQ(choose("sm_90a", {"ptx:90", "ptx:90a"}), 1);
  EXPECT_EQ(choose("sm_90a", {"ptx:90a", "ptx:90"}), 0);
  EXPECT_EQ(choose("sm_100a", {"ptx:100a", "ptx:100f"}), 0);
  // PTX family: same family only.
  EXPECT_EQ(choose("sm_103", {"ptx:100f"}), 0);
  EXPECT_EQ(choose("sm_103f", {"ptx:100f"}), 0);
  EXPECT_EQ(choose("sm_100a", {"ptx:100f"}), 0);
  EXPECT_EQ(choose("sm_121", {"ptx:120f"}), 0);
  EXPECT_EQ(choose("sm_110", {"ptx:100f"}), -1);
  EXPECT_EQ(choose("sm_120", {"ptx:100f"}), -1);
  EXPECT_EQ(choose("sm_103", {"ptx:100", "ptx:100f"}), 1);
  EXPECT_EQ(choose("sm_100f", {"ptx:100", "ptx:100f"}), 1);
}

TEST(FatbinSelect, TiesFirstElfLastPtx) {
  EXPECT_EQ(choose("sm_90", {"elf:90", "elf:90"}), 0);
  EXPECT_EQ(choose("sm_90", {"ptx:90", "ptx:90"}), 1);
  EXPECT_EQ(choose("sm_90", {"ptx:90", "elf:90", "ptx:90", "elf:90"}), 1);
}

TEST(FatbinSelect, RealObjects) {
  Arena arena;
  std::vector<u8> file;
  auto m = entries_of(arena, "multiarch.o", file);
  EXPECT_EQ(select_fatbin_entry(m, *parse_arch("sm_80")), &m[0]);
  EXPECT_EQ(select_fatbin_entry(m, *parse_arch("sm_89")), &m[0]);
  EXPECT_EQ(select_fatbin_entry(m, *parse_arch("sm_90")), &m[1]);
  EXPECT_EQ(select_fatbin_entry(m, *parse_arch("sm_100")), &m[2]); // JIT compute_90
  EXPECT_EQ(select_fatbin_entry(m, *parse_arch("sm_75")), nullptr);
  std::vector<u8> file2;
  auto v = entries_of(arena, "variants.fatbin", file2);
  EXPECT_EQ(select_fatbin_entry(v, *parse_arch("sm_90")), &v[0]);
  EXPECT_EQ(select_fatbin_entry(v, *parse_arch("sm_103")), &v[2]);
  EXPECT_EQ(select_fatbin_entry(v, *parse_arch("sm_89")), &v[3]); // compute_75
  std::vector<u8> file3;
  auto l = entries_of(arena, "lto.fatbin", file3);
  EXPECT_EQ(select_fatbin_entry(l, *parse_arch("sm_90")), nullptr);
}

} // namespace
} // namespace dlink

namespace dlink {
namespace {

// Random byte flips and cuts of real inputs: every outcome is either a
// parse or an InputError (never a crash; run under the ASan build).
TEST(FatbinCorrupt, RandomMutationsNeverCrash) {
  for (const char *name : {"zstd_rdc.o", "lz4_rdc.o", "raw_rdc.o", "variants.fatbin", "ldr.o"}) {
    std::vector<u8> orig = load(name);
    u64 seed = 0x9e3779b97f4a7c15ull;
    auto next = [&seed] {
      seed ^= seed << 13;
      seed ^= seed >> 7;
      seed ^= seed << 17;
      return seed;
    };
    for (int iter = 0; iter < 400; iter++) {
      std::vector<u8> f = orig;
      int flips = 1 + int(next() % 4);
      for (int i = 0; i < flips; i++)
        f[next() % f.size()] = static_cast<u8>(next());
      if (next() % 4 == 0)
        f.resize(next() % f.size());
      Arena arena;
      try {
        std::span<const u8> fb = f;
        if (!is_fatbin(f))
          fb = read_host_object(f).relfatbin_to_eof;
        for (bool first : {true, false}) {
          try {
            read_fatbin(arena, fb, first);
          } catch (const InputError &) {
          }
        }
      } catch (const InputError &) {
      }
    }
  }
  SUCCEED();
}

} // namespace
} // namespace dlink
