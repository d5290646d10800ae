// Archive reader (archive.h): real GNU ar output under testdata/inputs and
// synthetic archives reproducing what nvlink 13.0.88 was measured to do
// (docs/notes/inputs.md "Archives").
#include "dlink/archive.h"
#include "dlink/host_object.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace dlink {
namespace {

namespace fs = std::filesystem;

std::string input(const char *name) { return std::string(DLINK_TESTDATA) + "/inputs/" + name; }

std::vector<u8> load(const std::string &path) {
  Arena a;
  auto s = read_file_into_arena(a, path);
  return {s.begin(), s.end()};
}

bool same_bytes(std::span<const u8> a, std::span<const u8> b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

// --- archive builder -----------------------------------------------------

std::string header(std::string_view name, std::string_view size_field) {
  auto field = [](std::string_view s, size_t w) {
    std::string f(s.substr(0, w));
    f.resize(w, ' ');
    return f;
  };
  std::string h = field(name, 16) + field("0", 12) + field("0", 6) + field("0", 6) +
                  field("644", 8) + field(size_field, 10) + "`\n";
  EXPECT_EQ(h.size(), 60u);
  return h;
}

std::string header(std::string_view name, size_t size) {
  return header(name, std::to_string(size));
}

std::string text(std::span<const u8> b) { return {b.begin(), b.end()}; }

std::string member(std::string_view name, const std::string &data) {
  std::string m = header(name, data.size()) + data;
  if (data.size() & 1)
    m += '\n';
  return m;
}

std::vector<u8> bytes_of(const std::string &s) { return {s.begin(), s.end()}; }

struct Fixture {
  std::string k2 = text(load(input("k2.o")));
  std::string host = text(load(input("host.o")));
  std::string elf_junk = std::string("\x7f" "ELF", 4) + std::string(200, '\0');
};

std::vector<ArchiveMember> read(Arena &arena, const std::string &archive,
                                const ArchiveReadOptions &o = {}) {
  auto b = arena.copy(bytes_of(archive));
  return read_archive(arena, b, "test.a", o);
}

ArchiveError::Kind error_kind(const std::string &archive, const ArchiveReadOptions &o = {}) {
  Arena arena;
  try {
    read(arena, archive, o);
  } catch (const ArchiveError &e) {
    return e.kind();
  }
  ADD_FAILURE() << "no ArchiveError";
  return ArchiveError::Kind::NotArchive;
}

// --- real archives -------------------------------------------------------

TEST(Archive, GnuArchiveWithSymbolIndexAndLongNames) {
  Arena arena;
  auto bytes = load(input("libdev.a"));
  ASSERT_TRUE(is_archive(bytes));
  EXPECT_FALSE(is_thin_archive(bytes));
  auto members = read_archive(arena, bytes, input("libdev.a"));
  ASSERT_EQ(members.size(), 2u);
  EXPECT_EQ(members[0].name, "k2_with_a_long_member_name.o");
  EXPECT_EQ(members[0].gnu_name, "k2_with_a_long_member_name.o");
  EXPECT_EQ(members[1].name, "host.o");
  EXPECT_TRUE(same_bytes(members[0].data, load(input("k2.o"))));
  EXPECT_TRUE(same_bytes(members[1].data, load(input("host.o"))));
  EXPECT_FALSE(members[0].truncated);
  EXPECT_TRUE(members[0].path.empty());
  // Member data follows its 60-byte header; the "/" index and "//" table
  // come first and are not members.
  EXPECT_GT(members[0].header_offset, 8u);
  EXPECT_EQ(members[0].data.data(), bytes.data() + members[0].header_offset + 60);
  EXPECT_EQ(members[0].declared_size, members[0].data.size());
  EXPECT_TRUE(read_host_object(members[0].data).has_relfatbin);
  EXPECT_FALSE(read_host_object(members[1].data).has_relfatbin);
}

struct CwdGuard {
  fs::path saved = fs::current_path();
  explicit CwdGuard(const fs::path &to) { fs::current_path(to); }
  ~CwdGuard() { fs::current_path(saved); }
};

TEST(Archive, ThinArchiveMembers) {
  auto bytes = load(input("libthin.a"));
  ASSERT_TRUE(is_archive(bytes));
  ASSERT_TRUE(is_thin_archive(bytes));
  EXPECT_LT(bytes.size(), 2000u); // no member bytes inside
  {
    // GNU semantics: relative to the archive.
    Arena arena;
    ArchiveReadOptions o;
    o.thin_base = ArchiveReadOptions::ThinBase::ArchiveDir;
    auto m = read_archive(arena, bytes, input("libthin.a"), o);
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m[0].name, "k2.o");
    EXPECT_EQ(m[1].name, "host.o");
    EXPECT_EQ(fs::path(m[0].path), fs::path(input("k2.o")));
    EXPECT_TRUE(same_bytes(m[0].data, load(input("k2.o"))));
    EXPECT_TRUE(same_bytes(m[1].data, load(input("host.o"))));
  }
  {
    // nvlink: relative to the current directory.
    CwdGuard cwd(fs::path(DLINK_TESTDATA) / "inputs");
    Arena arena;
    auto m = read_archive(arena, bytes, "libthin.a");
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m[0].path, "k2.o");
    EXPECT_TRUE(same_bytes(m[0].data, load(input("k2.o"))));
  }
  {
    CwdGuard cwd(fs::path(DLINK_TESTDATA));
    Arena arena;
    try {
      read_archive(arena, bytes, "inputs/libthin.a");
      ADD_FAILURE() << "thin member found relative to the archive";
    } catch (const ArchiveError &e) {
      EXPECT_EQ(e.kind(), ArchiveError::Kind::MemberOpenFailed);
      EXPECT_EQ(e.member(), "k2.o"); // nvlink: Could not open input file 'k2.o'
    }
  }
}

TEST(Archive, ThinMemberNamesAreCutAtTheFirstSlash) {
  fs::path dir = fs::temp_directory_path() / ("dlink_archive_test_" + std::to_string(::getpid()));
  fs::create_directories(dir / "sub");
  {
    std::ofstream(dir / "sub" / "x.o") << "\x7f" "ELF-member";
  }
  std::string table = "sub/x.o/\n";
  std::string thin = "!<thin>\n" + member("//", table) + header("/0", 11);
  {
    CwdGuard cwd(dir);
    Arena arena;
    try {
      read(arena, thin);
      ADD_FAILURE() << "nvlink opens 'sub', a directory";
    } catch (const ArchiveError &e) {
      EXPECT_EQ(e.kind(), ArchiveError::Kind::MemberIsDirectory); // "Memory allocation failure"
    }
    ArchiveReadOptions o;
    o.thin_base = ArchiveReadOptions::ThinBase::ArchiveDir;
    auto b = arena.copy(bytes_of(thin));
    auto m = read_archive(arena, b, (dir / "t.a").string(), o);
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].name, "sub");
    EXPECT_EQ(m[0].gnu_name, "sub/x.o");
    EXPECT_EQ(text(m[0].data), "\x7f" "ELF-member");
  }
  fs::remove_all(dir);
}

// --- synthetic archives ----------------------------------------------------

TEST(Archive, ShortNamesNoIndexAndSymbolIndexes) {
  Fixture f;
  Arena arena;
  auto m = read(arena, "!<arch>\n" + member("b.o/", f.k2) + member("h.o/", f.host));
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].name, "b.o");
  EXPECT_EQ(m[1].name, "h.o");
  EXPECT_EQ(text(m[0].data), f.k2);
  // "/SYM64/" and other "/<non-digit>" members are skipped.
  auto s = read(arena, "!<arch>\n" + member("/SYM64/", std::string(8, '\0')) +
                           member("/abc", f.k2) + member("c.o/", f.host));
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].name, "c.o");
  // Names keep inner blanks; the name ends at the first '/'.
  auto n = read(arena, "!<arch>\n" + member("my file.o/", f.k2) + member("ab/cd.o/", f.k2) +
                           member("abcdefghijklmno/", f.k2));
  ASSERT_EQ(n.size(), 3u);
  EXPECT_EQ(n[0].name, "my file.o");
  EXPECT_EQ(n[1].name, "ab");
  EXPECT_EQ(n[2].name, "abcdefghijklmno");
}

TEST(Archive, EmptyArchives) {
  Arena arena;
  EXPECT_TRUE(read(arena, "!<arch>\n").empty());
  EXPECT_TRUE(read(arena, "!<thin>\n").empty());
  EXPECT_TRUE(read(arena, "!<arch>\n" + member("/", std::string(8, '\0'))).empty());
  EXPECT_TRUE(read(arena, "!<arch>\n" + member("//", "xx.o/\n")).empty());
  EXPECT_EQ(error_kind("!<arch>\n\n"), ArchiveError::Kind::BadFormat);
  EXPECT_EQ(error_kind("!<arcx>\n"), ArchiveError::Kind::NotArchive);
  EXPECT_EQ(error_kind("!<arch"), ArchiveError::Kind::NotArchive);
  EXPECT_FALSE(is_archive(bytes_of("!<arch")));
}

TEST(Archive, OddSizesArePadded) {
  Fixture f;
  Arena arena;
  std::string odd = f.k2 + "Z";
  auto m = read(arena, "!<arch>\n" + member("b.o/", odd) + member("c.o/", f.host));
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].data.size(), odd.size());
  EXPECT_EQ(text(m[1].data), f.host);
  // Last member odd without its pad byte: fine.
  auto last = read(arena, "!<arch>\n" + member("c.o/", f.host) + header("x.o/", 5) + "\x7f" "ELFx");
  ASSERT_EQ(last.size(), 2u);
  EXPECT_EQ(last[1].data.size(), 5u);
}

TEST(Archive, TrailingData) {
  Fixture f;
  std::string base = "!<arch>\n" + member("b.o/", f.k2) + member("c.o/", f.host);
  // nvlink: any trailing byte without '/' is "unexpected archive format".
  for (std::string tail : {std::string("\n"), std::string(3, 'q'), std::string(60, ' '),
                           std::string(100, 'q')})
    EXPECT_EQ(error_kind(base + tail), ArchiveError::Kind::BadFormat) << tail.size();
  // A partial header whose name part has a '/' is ignored.
  Arena arena;
  EXPECT_EQ(read(arena, base + "/qq").size(), 2u);
  EXPECT_EQ(read(arena, base + header("z.o/", 100).substr(0, 30)).size(), 2u);
  // A full header with no data left: an empty member at the end.
  ArchiveReadOptions keep;
  keep.stop_at_non_elf = false;
  auto m = read(arena, base + header("z.o/", 100), keep);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_TRUE(m[2].truncated);
  EXPECT_TRUE(m[2].data.empty());
}

TEST(Archive, TruncatedMembersAreClamped) {
  Fixture f;
  std::string full = "!<arch>\n" + member("b.o/", f.k2) + member("c.o/", f.host);
  Arena arena;
  auto m = read(arena, full.substr(0, full.size() - 100));
  ASSERT_EQ(m.size(), 2u);
  EXPECT_TRUE(m[1].truncated);
  EXPECT_EQ(m[1].declared_size, f.host.size());
  EXPECT_EQ(m[1].data.size(), f.host.size() - 100);
  // A declared size larger than the file clamps as well (nvlink linked it).
  std::string big = "!<arch>\n" + header("b.o/", 99999) + f.k2;
  auto b = read(arena, big);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_TRUE(b[0].truncated);
  EXPECT_EQ(text(b[0].data), f.k2);
  // Cut inside a header.
  EXPECT_EQ(read(arena, full.substr(0, 8 + 60 + f.k2.size() + 30)).size(), 1u);
  EXPECT_TRUE(read(arena, full.substr(0, 40)).empty());
}

TEST(Archive, SizeField) {
  Fixture f;
  Arena arena;
  for (std::string field : {" " + std::to_string(f.k2.size()), "+" + std::to_string(f.k2.size()),
                            std::to_string(f.k2.size()) + "x"}) {
    auto m = read(arena, "!<arch>\n" + header("b.o/", field) + f.k2 + member("c.o/", f.host));
    ASSERT_EQ(m.size(), 2u) << field;
    EXPECT_EQ(m[0].data.size(), f.k2.size());
  }
  // No digits reads as 0 (atoi): an empty member, then the member's bytes
  // are taken for the next header.
  for (std::string field : {std::string("abc"), std::string("-5"), std::string(""),
                            "0x" + std::to_string(f.k2.size())})
    EXPECT_EQ(error_kind("!<arch>\n" + header("b.o/", field) + f.k2), ArchiveError::Kind::BadFormat)
        << field;
  // nvlink: an unparsable size on the last member is fatal even though the
  // members before it are fine.
  EXPECT_EQ(error_kind("!<arch>\n" + member("b.o/", f.k2) + header("c.o/", "abc") + f.host),
            ArchiveError::Kind::BadFormat);
  // An empty size field followed by a good header: an empty member, which
  // stops the scan without an error (nvlink linked nothing from it).
  EXPECT_TRUE(read(arena, "!<arch>\n" + header("b.o/", "") + member("c.o/", f.host)).empty());
  EXPECT_EQ(error_kind("!<arch>\n" + header("b.o", f.k2.size()) + f.k2),
            ArchiveError::Kind::BadFormat);
  EXPECT_EQ(error_kind("!<arch>\n" + header("abcdefghijklmnop", f.k2.size()) + f.k2),
            ArchiveError::Kind::BadFormat);
  // The "`\n" terminator is not checked.
  std::string h = header("b.o/", f.k2.size());
  h[58] = 'x';
  h[59] = 'x';
  EXPECT_EQ(read(arena, "!<arch>\n" + h + f.k2).size(), 1u);
}

TEST(Archive, LongNames) {
  Fixture f;
  Arena arena;
  std::string table = "first_long_name.o/\ndir/sub/b.o/\nno_terminator";
  auto m = read(arena, "!<arch>\n" + member("//", table) + member("/0", f.k2) +
                           member("/19", f.k2) + member("/32", f.k2));
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].name, "first_long_name.o");
  EXPECT_EQ(m[1].name, "dir"); // nvlink prints 'lib.a:dir'
  EXPECT_EQ(m[1].gnu_name, "dir/sub/b.o");
  EXPECT_EQ(m[2].name, "no_terminator");
  EXPECT_EQ(error_kind("!<arch>\n" + member("/0", f.k2) + member("//", table)),
            ArchiveError::Kind::LongnamesMissing);
  EXPECT_EQ(error_kind("!<arch>\n" + member("//", table) + member("/999", f.k2)),
            ArchiveError::Kind::BadLongnameOffset);
  // A second table replaces the first.
  auto two = read(arena, "!<arch>\n" + member("//", "xx.o/\n") + member("//", "yy.o/\n") +
                             member("/0", f.k2));
  ASSERT_EQ(two.size(), 1u);
  EXPECT_EQ(two[0].name, "yy.o");
}

TEST(Archive, ScanningStopsAtTheFirstNonElfMember) {
  Fixture f;
  Arena arena;
  for (std::string odd : {std::string("hello world\n"), std::string(""), std::string(100, 'z'),
                          std::string("\x50\xed\x55\xba", 4) + std::string(60, '\0'),
                          std::string("!<arch>\n")}) {
    std::string a = "!<arch>\n" + member("b.o/", f.k2) + member("x/", odd) + member("c.o/", f.host);
    auto m = read(arena, a);
    ASSERT_EQ(m.size(), 1u) << odd.size();
    EXPECT_EQ(m[0].name, "b.o");
    ArchiveReadOptions all;
    all.stop_at_non_elf = false;
    EXPECT_EQ(read(arena, a, all).size(), 3u);
    // The structure after the stop is still checked.
    EXPECT_EQ(error_kind(a + "garbage"), ArchiveError::Kind::BadFormat);
  }
  // ELF members of any kind (cubin, host-only, truncated, junk after the
  // magic) do not stop it; the linker skips the unusable ones.
  auto m = read(arena, "!<arch>\n" + member("j.o/", f.elf_junk) + member("t.o/", f.k2.substr(0, 3000)) +
                           member("h.o/", f.host) + member("b.o/", f.k2));
  ASSERT_EQ(m.size(), 4u);
  EXPECT_TRUE(m[1].is_elf());
}

TEST(Archive, BsdNames) {
  Fixture f;
  std::string a = "!<arch>\n" + header("#1/8", f.k2.size() + 8) + std::string("b.o\0\0\0\0\0", 8) +
                  f.k2 + header("#1/4", f.host.size() + 4) + std::string("c.o\0", 4) + f.host;
  Arena arena;
  // nvlink: not understood; the first member does not start with ELF.
  EXPECT_TRUE(read(arena, a).empty());
  ArchiveReadOptions bsd;
  bsd.bsd_names = true;
  auto m = read(arena, a, bsd);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].name, "b.o");
  EXPECT_EQ(text(m[0].data), f.k2);
  EXPECT_EQ(m[1].name, "c.o");
  EXPECT_EQ(text(m[1].data), f.host);
}

TEST(Archive, DuplicateMembersAreAllReturned) {
  Fixture f;
  Arena arena;
  // nvlink links both (and reports multiple definitions).
  EXPECT_EQ(read(arena, "!<arch>\n" + member("b.o/", f.k2) + member("b.o/", f.k2)).size(), 2u);
}

} // namespace
} // namespace dlink

namespace dlink {
namespace {

TEST(Archive, RandomMutationsNeverCrash) {
  Fixture f;
  std::string base = text(load(input("libdev.a")));
  std::string synth = "!<arch>\n" + member("//", "long_name_member.o/\n") + member("/0", f.k2) +
                      member("h.o/", f.host);
  for (const std::string &orig : {base, synth}) {
    u64 seed = 0x2545f4914f6cdd1dull;
    auto next = [&seed] {
      seed ^= seed << 13;
      seed ^= seed >> 7;
      seed ^= seed << 17;
      return seed;
    };
    for (int iter = 0; iter < 1000; iter++) {
      std::string s = orig;
      // Mutate mostly the headers.
      for (int i = 0; i < 3; i++) {
        size_t at = next() % 2 ? next() % std::min<size_t>(s.size(), 1200) : next() % s.size();
        s[at] = static_cast<char>(next());
      }
      if (next() % 4 == 0)
        s.resize(next() % s.size());
      Arena arena;
      try {
        read(arena, s);
      } catch (const InputError &) {
      }
    }
  }
  SUCCEED();
}

} // namespace
} // namespace dlink
