// ELF object model round trips and reader robustness.
//
// (a) Every *.cubin under DLINK_TESTDATA (recursively) must be reproduced
//     byte for byte by read_elf + write_elf, and assign_offsets() must
//     recompute its section offsets, e_shoff and e_phoff exactly (Compiler
//     style for files without program headers, Linker style otherwise; ptxas
//     whole-program EXEC files are laid out like nvlink's). The only input
//     assign_offsets cannot know is the zero slack ptxas/nvlink leave after
//     string tables (see elf.cpp); the test measures it from the file, feeds
//     it in as extra size, and checks that it occurs only after STRTAB
//     sections. Finding no cubin at all is a failure.
// (b) Truncated files, bad e_shoff, bad string offsets and other corruptions
//     must raise InputError, never crash (run under the ASan build).
#include "dlink/elf.h"
#include "mercury/output.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

namespace dlink {
namespace {

namespace fs = std::filesystem;

std::vector<u8> read_bytes(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<u8>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Every *.cubin below DLINK_TESTDATA, skipping hidden directories (scratch
// space of tools that may be writing there concurrently).
std::vector<fs::path> all_cubins() {
  std::vector<fs::path> out;
  fs::path root = DLINK_TESTDATA;
  std::error_code ec;
  auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const auto &path = it->path();
    if (path.filename().string().starts_with(".")) {
      if (it->is_directory(ec))
        it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec) && path.extension() == ".cubin")
      out.push_back(path);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string rel(const fs::path &p) { return fs::relative(p, DLINK_TESTDATA).string(); }

TEST(ElfRoundTrip, TestdataHasCubins) {
  auto files = all_cubins();
  ASSERT_FALSE(files.empty()) << "no *.cubin found under " << DLINK_TESTDATA;
  // The corpus must cover relocatable and linked files of both families.
  bool rel_file = false, exec_file = false, merc = false;
  for (const auto &p : files) {
    auto bytes = read_bytes(p);
    ElfFile f = read_elf(bytes);
    rel_file |= f.type == ET_REL;
    exec_file |= f.type == ET_EXEC;
    merc |= f.sm() >= 100;
  }
  EXPECT_TRUE(rel_file && exec_file && merc);
}

TEST(ElfRoundTrip, ReadWriteIsByteExact) {
  auto files = all_cubins();
  ASSERT_FALSE(files.empty());
  for (const auto &p : files) {
    SCOPED_TRACE(rel(p));
    auto bytes = read_bytes(p);
    ElfFile f = read_elf(bytes);
    std::vector<u8> out = write_elf(f);
    ASSERT_EQ(out.size(), bytes.size());
    auto mismatch = std::mismatch(out.begin(), out.end(), bytes.begin());
    EXPECT_TRUE(mismatch.first == out.end())
        << "first difference at 0x" << std::hex << (mismatch.first - out.begin());
  }
}

// read_elf with an arena for the small sections reads the same file, and
// what the link reads after the merge (names, the small sections' bytes)
// then lies outside the input's bytes, whose pages are released.
TEST(ElfRoundTrip, SmallSectionsCopiedOutOfTheInput) {
  auto files = all_cubins();
  ASSERT_FALSE(files.empty());
  size_t copied = 0;
  for (const auto &p : files) {
    SCOPED_TRACE(rel(p));
    auto bytes = read_bytes(p);
    Arena arena;
    ElfFile f = read_elf(bytes, &arena);
    std::vector<u8> out = write_elf(f);
    ASSERT_TRUE(out == bytes);
    auto inside = [&](const void *q) {
      auto *c = static_cast<const u8 *>(q);
      return c >= bytes.data() && c < bytes.data() + bytes.size();
    };
    for (const ElfSection &sec : f.sections) {
      EXPECT_FALSE(!sec.name.empty() && inside(sec.name.data())) << sec.name;
      bool small = sec.type == SHT_STRTAB || sec.type == SHT_SYMTAB || sec.type == SHT_NOTE ||
                   sec.type == SHT_CUDA_INFO || sec.type == SHT_CUDA_CALLGRAPH;
      if (small && !sec.data.empty()) {
        EXPECT_FALSE(inside(sec.data.data())) << sec.name;
        copied++;
      }
      if (sec.type == SHT_SYMTAB) {
        for (const ElfSymbol &sym : read_symbols(f, sec)) {
          EXPECT_FALSE(!sym.name.empty() && inside(sym.name.data())) << sym.name;
        }
      }
    }
  }
  EXPECT_GT(copied, files.size()); // (every cubin has string tables)
}

// elf_image() (the pieces the output is written from) concatenates to
// exactly write_elf()'s bytes.
TEST(ElfRoundTrip, ImagePiecesEqualWriteElf) {
  auto files = all_cubins();
  ASSERT_FALSE(files.empty());
  for (const auto &p : files) {
    SCOPED_TRACE(rel(p));
    auto bytes = read_bytes(p);
    ElfFile f = read_elf(bytes);
    ElfImage image = elf_image(f);
    std::vector<u8> joined;
    for (std::span<const u8> piece : image.pieces)
      joined.insert(joined.end(), piece.begin(), piece.end());
    EXPECT_TRUE(joined == write_elf(f));
  }
}

// Zero slack the tools left after each section, beyond what alignment
// explains: walks the sections in order like assign_offsets does; sections
// placed before the running position (merc twins sharing bytes) are skipped.
std::vector<u64> unexplained_gaps(const ElfFile &f) {
  std::vector<u64> gaps(f.sections.size(), 0);
  u64 pos = kEhdrSize;
  size_t last = 0;
  for (size_t i = 1; i < f.sections.size(); i++) {
    const ElfSection &sec = f.sections[i];
    u64 expected = align_to(pos, sec.addralign);
    if (sec.offset < expected)
      continue;
    if (sec.offset > expected && last)
      gaps[last] = sec.offset - pos;
    if (occupies_file_space(sec)) {
      pos = sec.offset + sec.size;
      last = i;
    } else {
      pos = sec.offset;
    }
  }
  return gaps;
}

TEST(ElfRoundTrip, AssignOffsetsReproducesLayout) {
  auto files = all_cubins();
  ASSERT_FALSE(files.empty());
  for (const auto &p : files) {
    SCOPED_TRACE(rel(p));
    auto bytes = read_bytes(p);
    const ElfFile orig = read_elf(bytes);
    ElfFile f = orig;
    auto gaps = unexplained_gaps(orig);
    for (size_t i = 1; i < f.sections.size(); i++) {
      if (u64 gap = gaps[i]) {
        EXPECT_EQ(orig.sections[i].type, SHT_STRTAB)
            << "unexplained gap of " << gap << " bytes after " << orig.sections[i].name;
        f.sections[i].size += gap;
      }
    }
    for (auto &sec : f.sections)
      sec.offset = 0;
    f.shoff = 0;
    f.phoff = orig.segments.empty() ? orig.phoff : 0;
    assign_offsets(f, orig.segments.empty() ? OffsetStyle::Compiler : OffsetStyle::Linker,
                   mercury_shared_offset);
    for (size_t i = 0; i < f.sections.size(); i++)
      EXPECT_EQ(f.sections[i].offset, orig.sections[i].offset)
          << "section [" << i << "] " << orig.sections[i].name;
    EXPECT_EQ(f.shoff, orig.shoff);
    EXPECT_EQ(f.phoff, orig.phoff);
  }
}

// --- (b) reader robustness ------------------------------------------------

std::vector<u8> sample_cubin() {
  auto files = all_cubins();
  if (files.empty())
    return {};
  // Prefer a linked sm_100+ file: it has every kind of section.
  for (const auto &p : files)
    if (p.filename().string().find("linked_sm100") != std::string::npos)
      return read_bytes(p);
  return read_bytes(files.front());
}

// Decodes everything reachable from `bytes`; any failure must be InputError.
void decode_all(std::span<const u8> bytes) {
  ElfFile f = read_elf(bytes);
  for (const auto &sec : f.sections) {
    if (sec.type == SHT_SYMTAB || sec.type == SHT_CUDA_MERC_SYMTAB)
      (void)read_symbols(f, sec);
    else if (sec.type == SHT_REL || sec.type == SHT_RELA || sec.type == SHT_CUDA_MERC_RELA)
      (void)read_relocs(sec);
    else if (sec.type == SHT_NOTE)
      (void)read_notes(sec);
  }
  (void)write_elf(f);
}

void expect_input_error(std::span<const u8> bytes, const std::string &what) {
  SCOPED_TRACE(what);
  EXPECT_THROW(decode_all(bytes), InputError);
}

void put_u16(std::vector<u8> &b, size_t off, u16 v) { write_le<u16>(&b[off], v); }
void put_u32(std::vector<u8> &b, size_t off, u32 v) { write_le<u32>(&b[off], v); }
void put_u64(std::vector<u8> &b, size_t off, u64 v) { write_le<u64>(&b[off], v); }

TEST(ElfReader, RejectsTruncatedFiles) {
  auto good = sample_cubin();
  ASSERT_FALSE(good.empty());
  EXPECT_NO_THROW(decode_all(good));
  expect_input_error({}, "empty");
  for (size_t len : {size_t(1), size_t(4), size_t(16), size_t(63)})
    expect_input_error(std::span(good).first(len), "truncated to " + std::to_string(len));
  // Cut inside the section header table (which sits near the end).
  ElfFile f = read_elf(good);
  expect_input_error(std::span(good).first(f.shoff + 10), "cut in section headers");
  expect_input_error(std::span(good).first(f.shoff), "cut before section headers");
}

TEST(ElfReader, RejectsBadHeaderFields) {
  auto good = sample_cubin();
  ASSERT_FALSE(good.empty());
  ElfFile f = read_elf(good);
  auto bad = good;
  bad[0] = 0;
  expect_input_error(bad, "bad magic");
  bad = good;
  bad[4] = 1;
  expect_input_error(bad, "ELFCLASS32");
  bad = good;
  put_u64(bad, 40, good.size());
  expect_input_error(bad, "shoff at end of file");
  bad = good;
  put_u64(bad, 40, ~u64(0) - 8);
  expect_input_error(bad, "shoff overflowing");
  bad = good;
  put_u16(bad, 60, 0xffff);
  expect_input_error(bad, "huge shnum");
  bad = good;
  put_u16(bad, 58, 32);
  expect_input_error(bad, "bad shentsize");
  bad = good;
  put_u16(bad, 62, static_cast<u16>(f.sections.size()));
  expect_input_error(bad, "shstrndx out of range");
  if (!f.segments.empty()) {
    bad = good;
    put_u64(bad, 32, good.size() - 8);
    expect_input_error(bad, "phoff past end");
    bad = good;
    put_u16(bad, 54, 40);
    expect_input_error(bad, "bad phentsize");
  }
}

TEST(ElfReader, RejectsBadSectionFields) {
  auto good = sample_cubin();
  ASSERT_FALSE(good.empty());
  ElfFile f = read_elf(good);
  auto shdr = [&](size_t i) { return f.shoff + i * kShdrSize; };
  auto sym = f.find_section(".symtab");
  ASSERT_TRUE(sym);

  auto bad = good;
  put_u32(bad, shdr(2), 0x7fffffff);
  expect_input_error(bad, "section name offset out of range");
  bad = good;
  put_u64(bad, shdr(*sym) + 24, good.size() - 4);
  expect_input_error(bad, "symtab offset past end");
  bad = good;
  put_u64(bad, shdr(*sym) + 32, ~u64(0) - 2);
  expect_input_error(bad, "symtab size overflowing");
  bad = good;
  put_u64(bad, shdr(*sym) + 32, f.sections[*sym].size - 5);
  expect_input_error(bad, "symtab size not a multiple of 24");
  bad = good;
  put_u32(bad, shdr(*sym) + 40, 0xffff);
  expect_input_error(bad, "symtab link out of range");
  // A symbol name pointing past the string table.
  bad = good;
  put_u32(bad, f.sections[*sym].offset + kSymSize, 0x7ffffff0);
  expect_input_error(bad, "symbol name offset out of range");
  // Unterminated string table: overwrite the final NUL of .strtab.
  const ElfSection &strtab = f.sections[f.sections[*sym].link];
  bad = good;
  bad[strtab.offset + strtab.size - 1] = 'x';
  expect_input_error(bad, "unterminated strtab");
  // Relocation table size not a multiple of the entry size.
  for (size_t i = 0; i < f.sections.size(); i++)
    if (f.sections[i].type == SHT_RELA) {
      bad = good;
      put_u64(bad, shdr(i) + 32, f.sections[i].size - 1);
      expect_input_error(bad, "bad rela size");
      break;
    }
  // Note with a descriptor size past the section end.
  if (auto note = f.find_section(".note.nv.cuinfo")) {
    bad = good;
    put_u32(bad, f.sections[*note].offset + 4, 0x10000);
    expect_input_error(bad, "note descsz too large");
    bad = good;
    put_u32(bad, f.sections[*note].offset, 0xfffffff0);
    expect_input_error(bad, "note namesz too large");
  }
}

// Random corruption: whatever happens, only InputError may escape (and the
// sanitizers must stay quiet).
TEST(ElfReader, SurvivesRandomCorruption) {
  auto good = sample_cubin();
  ASSERT_FALSE(good.empty());
  std::mt19937 rng(12345);
  ElfFile f = read_elf(good);
  for (int iter = 0; iter < 2000; iter++) {
    auto bad = good;
    int flips = 1 + int(rng() % 8);
    for (int k = 0; k < flips; k++) {
      // Half of the hits go to the headers, where they matter most.
      size_t off;
      if (rng() % 2) {
        size_t table = f.sections.size() * kShdrSize;
        off = rng() % 3 == 0 ? rng() % kEhdrSize : f.shoff + rng() % table;
      } else {
        off = rng() % bad.size();
      }
      bad[off] = static_cast<u8>(rng());
    }
    if (rng() % 4 == 0)
      bad.resize(rng() % bad.size());
    try {
      decode_all(bad);
    } catch (const InputError &) {
    }
  }
}

} // namespace
} // namespace dlink

namespace dlink {
namespace {

// e_shnum of an image with `count` section headers (sections of no file
// data): nvlink writes the count itself up to and including 0xff00 sections,
// and 0 (the count in section 0's sh_size, which the writer sets) once the
// highest section index reaches SHN_LORESERVE (tools/large-links --threshold).
u16 written_shnum(size_t count) {
  ElfFile f;
  f.type = ET_EXEC;
  f.sections.resize(count);
  for (size_t i = 1; i < count; i++)
    f.sections[i].type = SHT_NOBITS;
  assign_offsets(f, OffsetStyle::Linker, mercury_shared_offset);
  std::vector<u8> bytes = write_elf(f);
  return static_cast<u16>(bytes[60] | bytes[61] << 8);
}

TEST(ElfExtendedNumbering, ShnumZeroOnlyPastIndex0xff00) {
  EXPECT_EQ(written_shnum(0xfeff), 0xfeff);
  EXPECT_EQ(written_shnum(0xff00), 0xff00);
  EXPECT_EQ(written_shnum(0xff01), 0);
  EXPECT_EQ(written_shnum(99014), 0);
}

} // namespace
} // namespace dlink
