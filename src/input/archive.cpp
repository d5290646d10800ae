// `ar` archive reader with nvlink's member rules (archive.h).
#include "dlink/archive.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <optional>

namespace dlink {

namespace {

std::string_view as_text(std::span<const u8> bytes) {
  return {reinterpret_cast<const char *>(bytes.data()), bytes.size()};
}

bool starts_with_elf(std::span<const u8> bytes) {
  return bytes.size() >= 4 && bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' &&
         bytes[3] == 'F';
}

// The size field as nvlink reads it (atoi): decimal, leading blanks and '+'
// allowed, anything after the digits ignored, no digits = 0. A negative or
// absurd value is an error.
std::optional<u64> parse_size(std::string_view field) {
  size_t i = 0;
  while (i < field.size() && (field[i] == ' ' || field[i] == '\t'))
    i++;
  if (i < field.size() && (field[i] == '+' || field[i] == '-')) {
    if (field[i] == '-')
      return std::nullopt;
    i++;
  }
  u64 value = 0;
  for (; i < field.size() && field[i] >= '0' && field[i] <= '9'; i++) {
    if (value > (~u64(0) - 9) / 10)
      return std::nullopt;
    value = value * 10 + u64(field[i] - '0');
  }
  return value;
}

// Digits only (long-name offsets).
std::optional<u64> parse_index(std::string_view field) {
  u64 value = 0;
  size_t i = 0;
  for (; i < field.size() && field[i] >= '0' && field[i] <= '9'; i++) {
    if (value > (~u64(0) - 9) / 10)
      return std::nullopt;
    value = value * 10 + u64(field[i] - '0');
  }
  if (i == 0)
    return std::nullopt;
  return value;
}

// GNU long name at `offset` in the "//" table: up to "/\n" (full) and up to
// the first '/' (nvlink's name).
struct LongName {
  std::string_view gnu;
  std::string_view nvlink;
};

LongName long_name_at(std::string_view table, u64 offset) {
  std::string_view rest = table.substr(offset);
  size_t gnu_end = rest.find("/\n");
  if (gnu_end == std::string_view::npos)
    gnu_end = rest.find('\n');
  if (gnu_end == std::string_view::npos)
    gnu_end = rest.size();
  size_t nv_end = rest.find('/');
  if (nv_end == std::string_view::npos)
    nv_end = rest.size();
  return {rest.substr(0, gnu_end), rest.substr(0, nv_end)};
}

} // namespace

bool ArchiveMember::is_elf() const { return starts_with_elf(data); }

bool is_archive(std::span<const u8> bytes) {
  if (bytes.size() < kArchiveMagic.size())
    return false;
  std::string_view magic = as_text(bytes.first(kArchiveMagic.size()));
  return magic == kArchiveMagic || magic == kThinArchiveMagic;
}

bool is_thin_archive(std::span<const u8> bytes) {
  return bytes.size() >= kThinArchiveMagic.size() &&
         as_text(bytes.first(kThinArchiveMagic.size())) == kThinArchiveMagic;
}

std::span<const u8> read_file_into_arena(Arena &arena, const std::string &path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in)
    throw InputError(fmt::format("cannot open '{}'", path));
  std::streamoff size = in.tellg();
  if (size < 0)
    throw InputError(fmt::format("cannot read '{}'", path));
  std::span<u8> out = arena.alloc_uninitialized(static_cast<size_t>(size));
  in.seekg(0);
  if (size > 0 && !in.read(reinterpret_cast<char *>(out.data()), size))
    throw InputError(fmt::format("cannot read '{}'", path));
  return out;
}

std::vector<ArchiveMember> read_archive(Arena &arena, std::span<const u8> bytes,
                                        std::string_view archive_path,
                                        const ArchiveReadOptions &options) {
  if (!is_archive(bytes))
    throw ArchiveError(ArchiveError::Kind::NotArchive,
                       fmt::format("'{}' is not an archive", archive_path));
  const bool thin = is_thin_archive(bytes);
  auto bad_format = [&](u64 off, const char *why) {
    return ArchiveError(ArchiveError::Kind::BadFormat,
                        fmt::format("unexpected archive format in '{}' at offset {:#x}: {}",
                                    archive_path, off, why));
  };

  // nvlink checks the structure of the whole archive, then takes members up
  // to the first non-ELF one: after `stopped`, headers are still walked (and
  // structural errors still reported) but nothing is read or returned.
  std::vector<ArchiveMember> members;
  bool stopped = false;
  std::optional<std::string_view> long_names;
  u64 off = kArchiveMagic.size();
  while (off < bytes.size()) {
    std::span<const u8> avail = bytes.subspan(off);
    std::string_view name_field = as_text(avail.first(std::min<size_t>(16, avail.size())));
    bool has_slash = name_field.find('/') != std::string_view::npos;
    if (avail.size() < kArchiveHeaderSize) {
      // A partial header at the end: ignored when it looks like a member
      // name, otherwise trailing garbage.
      if (has_slash)
        break;
      throw bad_format(off, "trailing data");
    }
    if (!has_slash)
      throw bad_format(off, "member name without '/'");
    std::string_view size_field = as_text(avail.subspan(48, 10));
    std::optional<u64> size = parse_size(size_field);
    if (!size)
      throw bad_format(off, "bad member size");

    const u64 data_off = off + kArchiveHeaderSize;
    const bool special = name_field[0] == '/' && (name_field.size() < 2 || name_field[1] < '0' ||
                                                  name_field[1] > '9');
    // Thin archives store only the special members' bytes.
    const bool has_bytes = !thin || special;
    std::span<const u8> data;
    bool truncated = false;
    if (has_bytes) {
      u64 avail_data = bytes.size() - data_off;
      truncated = *size > avail_data;
      data = bytes.subspan(data_off, truncated ? avail_data : *size);
    }
    u64 next = data_off;
    if (has_bytes) {
      next = *size > bytes.size() ? bytes.size() + 1 : data_off + *size + (*size & 1);
    }

    if (special) {
      if (name_field.starts_with("//"))
        long_names = as_text(data);
      // "/", "/SYM64/" and other "/<non-digit>" names are skipped.
      off = next;
      continue;
    }

    if (stopped) {
      off = next;
      continue;
    }
    ArchiveMember m;
    m.header_offset = off;
    m.declared_size = *size;
    m.truncated = truncated;
    if (name_field[0] == '/') {
      // "/123": offset into the long-name table.
      std::optional<u64> index = parse_index(name_field.substr(1));
      if (!long_names)
        throw ArchiveError(ArchiveError::Kind::LongnamesMissing,
                           fmt::format("'{}': long member name before the \"//\" table",
                                       archive_path));
      if (!index || *index >= long_names->size())
        throw ArchiveError(ArchiveError::Kind::BadLongnameOffset,
                           fmt::format("'{}': long member name offset out of range",
                                       archive_path));
      LongName ln = long_name_at(*long_names, *index);
      m.gnu_name = ln.gnu;
      m.name = ln.nvlink;
    } else if (options.bsd_names && name_field.starts_with("#1/")) {
      std::optional<u64> len = parse_index(name_field.substr(3));
      if (!len || *len > data.size())
        throw bad_format(off, "bad BSD name length");
      std::string_view bsd = as_text(data.first(*len));
      bsd = bsd.substr(0, bsd.find('\0'));
      m.gnu_name = m.name = bsd;
      data = data.subspan(*len);
    } else {
      std::string_view short_name = name_field.substr(0, name_field.find('/'));
      m.name = short_name;
      // GNU short names end with '/'; trailing blanks are padding.
      m.gnu_name = short_name;
    }

    if (thin) {
      std::string path;
      if (options.thin_base == ArchiveReadOptions::ThinBase::Cwd) {
        path = std::string(m.name);
      } else {
        std::filesystem::path p(std::string(m.gnu_name));
        if (p.is_relative())
          p = std::filesystem::path(std::string(archive_path)).parent_path() / p;
        path = p.string();
      }
      std::error_code ec;
      if (std::filesystem::is_directory(path, ec))
        throw ArchiveError(ArchiveError::Kind::MemberIsDirectory,
                           fmt::format("thin archive member '{}' is a directory", path),
                           std::string(m.name));
      try {
        data = read_file_into_arena(arena, path);
      } catch (const InputError &) {
        throw ArchiveError(ArchiveError::Kind::MemberOpenFailed,
                           fmt::format("Could not open input file '{}'", m.name),
                           std::string(m.name));
      }
      m.path = std::move(path);
    }
    m.data = data;
    if (options.stop_at_non_elf && !m.is_elf())
      stopped = true;
    else
      members.push_back(std::move(m));
    off = next;
  }
  return members;
}

} // namespace dlink
