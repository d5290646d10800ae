// Fatbin container reader and nvlink's entry selection (fatbin.h).
#include "dlink/fatbin.h"

#include <fmt/format.h>
#include <lz4.h>
#include <zstd.h>

#include <algorithm>
#include <limits>
#include <tuple>

namespace dlink {

namespace {

bool in_range(std::span<const u8> bytes, u64 offset, u64 size) {
  return offset <= bytes.size() && size <= bytes.size() - offset;
}

std::string_view text_until_nul(std::span<const u8> bytes) {
  const char *p = reinterpret_cast<const char *>(bytes.data());
  size_t n = 0;
  while (n < bytes.size() && p[n] != '\0')
    n++;
  return {p, n};
}

// Parses the entries of the container at `c`; returns the container's end.
u64 read_container(Arena &arena, std::span<const u8> bytes, u64 c, size_t index,
                   const FatbinReadOptions &options, std::vector<FatbinEntry> &out) {
  if (!in_range(bytes, c, kFatbinHeaderSize))
    throw FatbinError(FatbinError::Kind::Truncated,
                      fmt::format("fatbin container header at offset {:#x} is truncated", c));
  const u8 *h = bytes.data() + c;
  if (read_le<u32>(h) != kFatbinMagic)
    throw FatbinError(FatbinError::Kind::BadMagic,
                      fmt::format("no fatbin magic at offset {:#x}", c));
  u16 version = read_le<u16>(h + 4);
  if (version != 1)
    throw FatbinError(FatbinError::Kind::BadVersion,
                      fmt::format("unsupported fatbin container version {}", version));
  u64 header_size = read_le<u16>(h + 6);
  u64 payload_size = read_le<u64>(h + 8);
  // nvlink starts the entries at the recorded header size and does not
  // require the payload to fit (a truncated, unused last entry is harmless).
  u64 start = c + header_size;
  u64 end = payload_size > std::numeric_limits<u64>::max() - start
                ? std::numeric_limits<u64>::max()
                : start + payload_size;

  for (u64 e = start; e < end;) {
    // Running out of data exactly at an entry boundary ends the container;
    // a partial entry header is an error (nvlink crashes on both).
    if (e >= bytes.size())
      break;
    if (!in_range(bytes, e, kFatbinEntryHeaderSize))
      throw FatbinError(FatbinError::Kind::Truncated,
                        fmt::format("fatbin entry header at offset {:#x} is truncated", e));
    const u8 *p = bytes.data() + e;
    FatbinEntry ent;
    ent.kind = read_le<u16>(p);
    ent.unknown_02 = read_le<u16>(p + 2);
    ent.header_size = read_le<u32>(p + 4);
    ent.padded_size = read_le<u64>(p + 8);
    ent.compressed_size = read_le<u32>(p + 0x10);
    ent.options_offset = read_le<u32>(p + 0x14);
    ent.minor = read_le<u16>(p + 0x18);
    ent.major = read_le<u16>(p + 0x1a);
    ent.sm = read_le<u32>(p + 0x1c);
    ent.name_offset = read_le<u32>(p + 0x20);
    ent.name_size = read_le<u32>(p + 0x24);
    ent.flags = read_le<u64>(p + 0x28);
    ent.unknown_30 = read_le<u64>(p + 0x30);
    ent.uncompressed_size = read_le<u64>(p + 0x38);
    ent.container_index = index;
    ent.offset = e;
    if (ent.header_size < kFatbinEntryHeaderSize)
      throw FatbinError(FatbinError::Kind::BadEntry,
                        fmt::format("fatbin entry at offset {:#x} has header size {:#x}", e,
                                    ent.header_size));

    // Tail fields are only trusted inside the entry header; nvlink ignores
    // bad name/option offsets of entries it does not use.
    std::span<const u8> header = bytes.subspan(e, std::min<u64>(ent.header_size, bytes.size() - e));
    if (ent.name_offset != 0 && in_range(header, ent.name_offset, ent.name_size))
      ent.name = text_until_nul(header.subspan(ent.name_offset, ent.name_size));
    if (ent.options_offset != 0 && in_range(header, ent.options_offset, 8)) {
      u32 data_off = read_le<u32>(header.data() + ent.options_offset);
      u32 data_len = read_le<u32>(header.data() + ent.options_offset + 4);
      if (in_range(header, data_off, data_len)) {
        ent.options_data = header.subspan(data_off, data_len);
        if (ent.is_ptx())
          ent.ptxas_options = text_until_nul(ent.options_data);
        else if (ent.is_ltoir())
          ent.cicc_options = text_until_nul(ent.options_data);
      }
    }

    u64 data = e + ent.header_size;
    u64 stored_size = ent.compressed() ? ent.compressed_size : ent.padded_size;
    if (in_range(bytes, data, stored_size)) {
      ent.stored = bytes.subspan(data, stored_size);
    } else {
      ent.truncated = true;
      if (data < bytes.size())
        ent.stored = bytes.subspan(data);
    }
    if (!ent.compressed() && !ent.truncated) {
      ent.payload = ent.stored;
      ent.decompressed = true;
    }
    out.push_back(ent);
    if (options.decompress)
      decompress_fatbin_entry(arena, out.back());

    u64 step = ent.header_size + ent.padded_size;
    if (ent.padded_size > std::numeric_limits<u64>::max() - ent.header_size ||
        step > std::numeric_limits<u64>::max() - e)
      break;
    e += step;
  }
  return end;
}

} // namespace

bool FatbinEntry::compressed() const {
  if (is_ltoir() || (flags & FATBIN_FLAG_OPAQUE))
    return false;
  return flags & (FATBIN_FLAG_LZ4 | FATBIN_FLAG_ZSTD);
}

Arch::Variant FatbinEntry::variant() const {
  if (arch_specific())
    return Arch::Variant::Specific;
  if (family())
    return Arch::Variant::Family;
  return Arch::Variant::None;
}

std::string FatbinEntry::arch_name() const {
  Arch a;
  a.kind = is_ptx() ? Arch::Kind::Compute : is_ltoir() ? Arch::Kind::Lto : Arch::Kind::Sm;
  a.sm = sm;
  a.variant = variant();
  return a.name();
}

std::string_view FatbinEntry::ptx_text() const {
  if (!is_ptx())
    return {};
  return text_until_nul(payload);
}

bool is_fatbin(std::span<const u8> bytes) {
  return bytes.size() >= kFatbinHeaderSize && read_le<u32>(bytes.data()) == kFatbinMagic;
}

std::vector<FatbinEntry> read_fatbin(Arena &arena, std::span<const u8> bytes,
                                     const FatbinReadOptions &options) {
  std::vector<FatbinEntry> out;
  u64 c = 0;
  for (size_t index = 0;; index++) {
    u64 end = read_container(arena, bytes, c, index, options, out);
    if (options.first_container_only || end >= bytes.size())
      break;
    // A container that claims no bytes (header and payload sizes 0) would
    // be read again and again.
    if (end <= c)
      throw FatbinError(FatbinError::Kind::BadEntry,
                        fmt::format("fatbin container at offset {:#x} has size 0", c));
    c = end;
    // `ld -r` places the next container at the section alignment; the gap
    // (and any tail) is zero.
    while (c < bytes.size() && bytes[c] == 0)
      c++;
    if (c >= bytes.size())
      break;
  }
  return out;
}

std::vector<FatbinEntry> read_fatbin(Arena &arena, std::span<const u8> bytes,
                                     bool first_container_only) {
  FatbinReadOptions options;
  options.first_container_only = first_container_only;
  return read_fatbin(arena, bytes, options);
}

std::span<const u8> decompress_lz4_block(Arena &arena, std::span<const u8> src,
                                         u64 uncompressed_size) {
  // LZ4 cannot expand a byte to more than 255 bytes; refuse sizes that could
  // not come out of `src` before allocating.
  if (src.empty() || src.size() > u64(std::numeric_limits<int>::max()) ||
      uncompressed_size > u64(std::numeric_limits<int>::max()) ||
      uncompressed_size > src.size() * 255 + 16)
    throw FatbinError(FatbinError::Kind::UncompressFailed, "LZ4 payload has impossible sizes",
                      FATBIN_FLAG_LZ4);
  std::span<u8> dst = arena.alloc(uncompressed_size);
  int n = LZ4_decompress_safe(reinterpret_cast<const char *>(src.data()),
                              reinterpret_cast<char *>(dst.data()), static_cast<int>(src.size()),
                              static_cast<int>(uncompressed_size));
  if (n < 0 || u64(n) != uncompressed_size)
    throw FatbinError(FatbinError::Kind::UncompressFailed,
                      fmt::format("LZ4 block did not decode to {} bytes", uncompressed_size),
                      FATBIN_FLAG_LZ4);
  return dst;
}

std::span<const u8> decompress_zstd(Arena &arena, std::span<const u8> src,
                                    u64 uncompressed_size) {
  // Check the sizes the frame headers announce before allocating.
  auto fail = [&](const char *why) {
    return FatbinError(FatbinError::Kind::UncompressFailed, fmt::format("zstd payload: {}", why),
                       FATBIN_FLAG_ZSTD);
  };
  if (src.empty() || uncompressed_size == 0)
    throw fail("empty");
  // zstd cannot expand beyond ~32K:1 (RLE blocks); refuse sizes no real
  // fatbin has before allocating.
  if (uncompressed_size > (u64(1) << 32) || uncompressed_size / 65536 > src.size())
    throw fail("impossible uncompressed size");
  u64 announced = 0;
  bool known = true;
  for (size_t pos = 0; pos < src.size();) {
    size_t frame = ZSTD_findFrameCompressedSize(src.data() + pos, src.size() - pos);
    if (ZSTD_isError(frame) || frame == 0)
      throw fail("malformed frame");
    unsigned long long content = ZSTD_getFrameContentSize(src.data() + pos, src.size() - pos);
    if (content == ZSTD_CONTENTSIZE_ERROR)
      throw fail("malformed frame header");
    if (content == ZSTD_CONTENTSIZE_UNKNOWN)
      known = false;
    else
      announced += content;
    pos += frame;
  }
  if (known && announced != uncompressed_size)
    throw fail("size does not match the entry header");
  std::span<u8> dst = arena.alloc(uncompressed_size);
  size_t n = ZSTD_decompress(dst.data(), dst.size(), src.data(), src.size());
  if (ZSTD_isError(n) || n != uncompressed_size)
    throw FatbinError(FatbinError::Kind::UncompressFailed,
                      fmt::format("zstd payload did not decode to {} bytes", uncompressed_size),
                      FATBIN_FLAG_ZSTD);
  return dst;
}

void decompress_fatbin_entry(Arena &arena, FatbinEntry &entry) {
  if (entry.decompressed)
    return;
  if (entry.truncated)
    throw FatbinError(entry.compressed() ? FatbinError::Kind::UncompressFailed
                                         : FatbinError::Kind::Truncated,
                      fmt::format("fatbin entry at offset {:#x} extends past the end of the input",
                                  entry.offset),
                      entry.flags);
  if (!entry.compressed()) {
    entry.payload = entry.stored;
  } else if (entry.lz4()) {
    entry.payload = decompress_lz4_block(arena, entry.stored, entry.uncompressed_size);
  } else {
    entry.payload = decompress_zstd(arena, entry.stored, entry.uncompressed_size);
  }
  entry.decompressed = true;
}

namespace {

bool elf_binary_compatible(u32 from, u32 to) {
  struct Pair {
    u32 from, to;
  };
  static constexpr Pair kPairs[] = {{80, 86}, {80, 89}, {86, 89}, {100, 103}, {120, 121}};
  for (const Pair &p : kPairs)
    if (p.from == from && p.to == to)
      return true;
  return false;
}

bool usable(const FatbinEntry &e, const Arch &t) {
  if (e.is_elf()) {
    if (e.sm == t.sm)
      return true;
    return e.sm < t.sm && !e.arch_specific() && elf_binary_compatible(e.sm, t.sm);
  }
  if (e.is_ptx()) {
    if (e.arch_specific())
      return e.sm == t.sm && t.variant == Arch::Variant::Specific;
    if (e.family())
      return e.sm <= t.sm && family_of(e.sm) == family_of(t.sm);
    return e.sm <= t.sm;
  }
  return false;
}

int variant_rank(const FatbinEntry &e) {
  return e.arch_specific() ? 2 : e.family() ? 1 : 0;
}

} // namespace

const FatbinEntry *select_fatbin_entry(std::span<const FatbinEntry> entries, const Arch &target) {
  const FatbinEntry *best = nullptr;
  auto key = [](const FatbinEntry &e) {
    return std::tuple(e.sm, e.is_elf() ? 1 : 0, variant_rank(e));
  };
  for (const FatbinEntry &e : entries) {
    if (!usable(e, target))
      continue;
    if (!best || key(e) > key(*best) || (key(e) == key(*best) && e.is_ptx()))
      best = &e;
  }
  return best;
}

} // namespace dlink
