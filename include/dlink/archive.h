// System V / GNU `ar` archives and GNU thin archives, read the way nvlink
// 13.0.88 reads them (docs/notes/inputs.md "Archives").
//
// Format: "!<arch>\n" (or "!<thin>\n"), then members, each a 60-byte header
// (name[16] date[12] uid[6] gid[6] mode[8] size[10] "`\n") followed by `size`
// bytes and a pad byte when `size` is odd. Special members: "/" and "/SYM64/"
// (symbol index, ignored: nvlink inspects members itself), "//" (GNU long-name
// table; "/123" names refer to offset 123 in it). In thin archives only the
// special members carry data; other members name files on disk.
//
// nvlink's quirks reproduced by default:
//  * a member's name is its name field (or long-name table text) up to the
//    first '/'; a header whose 16-byte name field has no '/' is an error
//    ("unexpected archive format"), as is any trailing data without one;
//  * a declared size past the end of the file is clamped; a partial header at
//    the end whose name part contains '/' is ignored;
//  * the size field is decimal (leading blanks and '+' allowed, trailing junk
//    ignored); no digits or a '-' sign is an error;
//  * scanning stops silently at the first member that is not an ELF file (a
//    text file, empty member, fatbin, nested archive): later members are never
//    linked. ELF members that are cubins, host-only or truncated are returned
//    (the linker skips them);
//  * BSD "#1/len" names are not understood (the member then does not start
//    with an ELF header, so scanning stops there);
//  * thin archive members are opened relative to the CURRENT directory using
//    the name cut at the first '/' (so "sub/x.o" opens "sub").
#pragma once

#include "dlink/arena.h"
#include "dlink/common.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dlink {

constexpr std::string_view kArchiveMagic = "!<arch>\n";
constexpr std::string_view kThinArchiveMagic = "!<thin>\n";
constexpr size_t kArchiveHeaderSize = 60;

struct ArchiveMember {
  std::string_view name;     // as nvlink prints it in "lib.a:name"
  std::string_view gnu_name; // full GNU name (long names may contain '/')
  std::span<const u8> data;  // member bytes (arena-owned for thin members)
  u64 header_offset = 0;     // of the 60-byte header in the archive
  u64 declared_size = 0;     // size field
  bool truncated = false;    // declared size ran past the end (data clamped)
  std::string path;          // thin archives: the file that was read

  bool is_elf() const;
};

struct ArchiveReadOptions {
  enum class ThinBase {
    Cwd,        // nvlink: open the nvlink name relative to the current directory
    ArchiveDir, // GNU ar: open the full name relative to the archive's directory
  };
  ThinBase thin_base = ThinBase::Cwd;
  // nvlink stops scanning at the first non-ELF member.
  bool stop_at_non_elf = true;
  // Understand BSD "#1/len" names (nvlink does not).
  bool bsd_names = false;
};

class ArchiveError : public InputError {
public:
  enum class Kind {
    NotArchive,        // no "!<arch>\n"/"!<thin>\n" magic
    BadFormat,         // nvlink: "unexpected archive format"
    LongnamesMissing,  // "/N" before any "//" member: "longnames header not found"
    BadLongnameOffset, // "/N" past the table: nvlink prints "Memory allocation failure"
    MemberOpenFailed,  // thin member missing: "Could not open input file '<name>'"
    MemberIsDirectory, // thin member is a directory: "Memory allocation failure"
  };
  ArchiveError(Kind kind, const std::string &msg, std::string member = {})
      : InputError(msg), kind_(kind), member_(std::move(member)) {}
  Kind kind() const { return kind_; }
  // Member name or path involved (MemberOpenFailed: the name nvlink prints).
  const std::string &member() const { return member_; }

private:
  Kind kind_;
  std::string member_;
};

bool is_archive(std::span<const u8> bytes);      // regular or thin
bool is_thin_archive(std::span<const u8> bytes);

// Reads the members of the archive in `bytes` (which must outlive the
// result). `archive_path` locates thin members in ArchiveDir mode and appears
// in messages. An archive without members gives an empty vector.
std::vector<ArchiveMember> read_archive(Arena &arena, std::span<const u8> bytes,
                                        std::string_view archive_path,
                                        const ArchiveReadOptions &options = {});

// Reads a whole file into arena memory. Throws InputError when it cannot.
std::span<const u8> read_file_into_arena(Arena &arena, const std::string &path);

// nvlink 13.0.88 diagnostics about archives and library search (exact texts).
namespace nvlink_msg {
// fatal, then fatal "elfLink internal error" (exit 1).
inline constexpr const char *kUnexpectedArchiveFormat = "unexpected archive format";
inline constexpr const char *kLongnamesHeaderNotFound = "longnames header not found";
inline constexpr const char *kMemoryAllocationFailure = "Memory allocation failure";
// fatal (+ "elfLink internal error" when it is a thin member).
inline constexpr const char *kCouldNotOpenInputFile = "Could not open input file '{}'";
// warning: a file found through -L/-l that is at most 8 bytes long, or an
// archive with no member for which is_host_elf() holds (empty, index only,
// cubins only, first member not ELF); the search goes on in the next
// directory. A non-archive found through -l is kUnexpectedArchiveFormat.
inline constexpr const char *kSkippingIncompatible = "Skipping incompatible '{}' when searching for -l{}";
} // namespace nvlink_msg

} // namespace dlink
