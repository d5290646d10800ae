// Fatbin containers: the device-code payload of host objects and .fatbin files.
//
// Layout (formats.md §2): a 16-byte container header (magic 0xBA55ED50,
// version 1, header size, payload size) followed by entries; each entry is a
// 0x40-byte header plus an optional tail (name, options) and a payload that
// may be LZ4 (raw block) or zstd compressed. Containers may be concatenated
// (`ld -r`), but nvlink only ever uses the FIRST container of a host object's
// __nv_relfatbin section or of a .fatbin file (docs/notes/inputs.md).
//
// The reader is strict about structure it must trust (headers inside the
// buffer) and lenient where nvlink is: unknown entry kinds, flags, versions,
// out-of-range name/option offsets and trailing bytes after the first
// container are accepted. A payload that runs past the end of the buffer only
// fails when that entry is decompressed (nvlink links a fatbin whose unused
// PTX entry is truncated).
#pragma once

#include "dlink/arch.h"
#include "dlink/arena.h"
#include "dlink/common.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dlink {

constexpr u32 kFatbinMagic = 0xBA55ED50;
constexpr size_t kFatbinHeaderSize = 0x10;
constexpr size_t kFatbinEntryHeaderSize = 0x40;

// Entry kinds (u16 at +0). Other values are kept and ignored by selection.
enum : u16 { FATBIN_KIND_PTX = 1, FATBIN_KIND_ELF = 2, FATBIN_KIND_LTOIR = 8 };

// Entry flags (u64 at +0x28), formats.md §2.3.
enum : u64 {
  FATBIN_FLAG_64BIT = 0x1,
  FATBIN_FLAG_DEBUG = 0x2,
  FATBIN_FLAG_LINUX = 0x10,
  FATBIN_FLAG_LZ4 = 0x2000,   // raw LZ4 block, uncompressed_size gives the output size
  FATBIN_FLAG_ZSTD = 0x8000,  // standard zstd frame(s)
  FATBIN_FLAG_OPAQUE = 0x10000, // LTO-IR entries; payload is not plain zstd (meaning UNVERIFIED)
  FATBIN_FLAG_ARCH_SPECIFIC = 0x100000, // sm_XXa / compute_XXa
  FATBIN_FLAG_FAMILY = 0x200000,        // sm_XXf / compute_XXf
  FATBIN_FLAG_COMPAT = 0x1000000,       // sm_100+ ELF entries carrying a .nv.compat copy
};

struct FatbinEntry {
  // Raw header fields.
  u16 kind = 0;
  u16 unknown_02 = 0;       // always 0x0101
  u32 header_size = 0;      // 0x40 + tail
  u64 padded_size = 0;      // payload bytes reserved after the header
  u32 compressed_size = 0;  // 0 when stored raw
  u32 options_offset = 0;   // offset of the {u32 off, u32 len} descriptor, 0 if none
  u16 minor = 0;
  u16 major = 0;
  u32 sm = 0;               // decimal SM number, no a/f suffix
  u32 name_offset = 0;
  u32 name_size = 0;
  u64 flags = 0;
  u64 unknown_30 = 0;       // non-zero on LTO-IR entries
  u64 uncompressed_size = 0;

  size_t container_index = 0; // which container (0 = first)
  u64 offset = 0;             // of the entry header, from the start of the input span

  std::string_view name;          // source file name (-G builds); empty if none
  // Raw option bytes. sm_100+ ELF entries: one 0x00 byte, then the cubin's
  // .nv.compat bytes (data_len = section size, so the last section byte is cut).
  std::span<const u8> options_data;
  std::string_view ptxas_options; // PTX entries: ptxas options, e.g. "--compile-only  "
  std::string_view cicc_options;  // LTO-IR entries: "-ftz=0 -prec_div=1 ..."

  // Payload as stored in the fatbin (compressed bytes, or the raw padded
  // payload). Clipped to the input when `truncated`.
  std::span<const u8> stored;
  bool truncated = false;
  // Decompressed payload (arena memory), or the stored bytes for raw entries.
  // Empty until decompressed when reading with decompress = false.
  std::span<const u8> payload;
  bool decompressed = false;

  bool is_ptx() const { return kind == FATBIN_KIND_PTX; }
  bool is_elf() const { return kind == FATBIN_KIND_ELF; }
  bool is_ltoir() const { return kind == FATBIN_KIND_LTOIR; }
  bool arch_specific() const { return flags & FATBIN_FLAG_ARCH_SPECIFIC; }
  bool family() const { return flags & FATBIN_FLAG_FAMILY; }
  bool is_64bit() const { return flags & FATBIN_FLAG_64BIT; }
  bool debug() const { return flags & FATBIN_FLAG_DEBUG; }
  bool lz4() const { return flags & FATBIN_FLAG_LZ4; }
  bool zstd() const { return flags & FATBIN_FLAG_ZSTD; }
  // Whether reading the payload involves a decompressor (LZ4 wins when both
  // bits are set, as in nvlink). LTO-IR payloads are opaque and never are.
  bool compressed() const;
  Arch::Variant variant() const;
  // "sm_90a" for ELF, "compute_90a" for PTX, "lto_90" for LTO-IR.
  std::string arch_name() const;
  // PTX source text (payload up to the first NUL); empty for other kinds.
  std::string_view ptx_text() const;
};

struct FatbinReadOptions {
  // nvlink reads only the first container (formats.md §1.1).
  bool first_container_only = true;
  // Decompress every entry while reading; when false, call
  // decompress_fatbin_entry() for the entries actually used (nvlink only
  // decompresses the selected entry, so a corrupt unused entry is harmless).
  bool decompress = true;
};

// Why a fatbin could not be read. The driver maps these to nvlink's texts
// (constants below).
class FatbinError : public InputError {
public:
  enum class Kind {
    BadMagic,         // no container magic at the start
    BadVersion,       // container version != 1
    Truncated,        // a container or entry header runs past the end
    BadEntry,         // entry header size < 0x40 or otherwise unusable
    UncompressFailed, // decompression failed or produced the wrong size
  };
  FatbinError(Kind kind, const std::string &msg, u64 entry_flags = 0)
      : InputError(msg), kind_(kind), entry_flags_(entry_flags) {}
  Kind kind() const { return kind_; }
  // Flags of the entry involved (UncompressFailed): tells LZ4 from zstd.
  u64 entry_flags() const { return entry_flags_; }

private:
  Kind kind_;
  u64 entry_flags_;
};

bool is_fatbin(std::span<const u8> bytes);

// Parses the container(s) in `bytes`. Entry spans point into `bytes` or into
// arena memory (decompressed payloads).
std::vector<FatbinEntry> read_fatbin(Arena &arena, std::span<const u8> bytes,
                                     const FatbinReadOptions &options);
std::vector<FatbinEntry> read_fatbin(Arena &arena, std::span<const u8> bytes,
                                     bool first_container_only);

// Fills entry.payload (idempotent). Throws FatbinError{UncompressFailed}.
void decompress_fatbin_entry(Arena &arena, FatbinEntry &entry);

// Low-level decompressors: exactly `uncompressed_size` bytes must come out.
std::span<const u8> decompress_lz4_block(Arena &arena, std::span<const u8> src,
                                         u64 uncompressed_size);
std::span<const u8> decompress_zstd(Arena &arena, std::span<const u8> src,
                                    u64 uncompressed_size);

// nvlink's choice among the ELF and PTX entries of one fatbin for -arch=target
// (measured, docs/notes/inputs.md "Entry selection"):
//   * ELF usable when entry sm == target sm (any a/f variant on either side),
//     or when the entry is not arch-specific and (entry sm, target sm) is a
//     binary-compatible pair: 80->86, 80->89, 86->89, 100->103, 120->121;
//   * PTX usable when: arch-specific: same sm and the target is 'a';
//     family: entry sm <= target sm within the same family (100/103, 110,
//     120/121); plain: entry sm <= target sm;
//   * best = highest sm, then ELF over PTX, then a > f > plain; among equal
//     candidates the first ELF entry wins but the last PTX entry wins.
// Returns nullptr when nothing fits (nvlink: "SM Arch ('sm_XX') not found in 'f'").
const FatbinEntry *select_fatbin_entry(std::span<const FatbinEntry> entries, const Arch &target);

// nvlink 13.0.88 diagnostics about fatbins (exact texts; docs/notes/inputs.md).
namespace nvlink_msg {
// fatal, then fatal kInternalError. Host object whose ELF headers/sections are
// out of range, or whose __nv_relfatbin does not start with the magic.
inline constexpr const char *kCouldNotFindFatbin = "Could not find fatbin in '{}'";
inline constexpr const char *kInternalError = "elfLink internal error";
// fatal, a file named *.fatbin without the magic (no second line).
inline constexpr const char *kFatbinWrongFormat = "fatbin wrong format?";
// error, then fatal kFatbinaryError: container version != 1.
inline constexpr const char *kBinaryFormatNotRecognized =
    "Binary format for key='0', ident='' is not recognized";
inline constexpr const char *kFatbinaryError = "elfLink fatbinary error";
// error. zstd failures: printed twice (once if uncompressed_size is larger than
// the real size), then fatal kFatbinaryError, exit 1. LZ4 failures: printed
// once, the object is then treated as having no entry for the arch
// (kSmArchNotFound warning) and the link goes on (exit 0 if nothing else).
inline constexpr const char *kUncompressFailed = "Uncompress failed";
// warning (not silenced by -w; -Werror makes it an error).
inline constexpr const char *kSmArchNotFound = "SM Arch ('{}') not found in '{}'";
// fatal: the only entries are LTO-IR and -dlto was not given.
inline constexpr const char *kLtoObjectsFound = "LTO objects found, use -dlto";
// Checks nvlink applies to the selected ELF entry (cubin) itself:
// fatal, EI_CLASS != ELFCLASS64.
inline constexpr const char *kSizeDoesNotMatchTarget = "Input file '{}' size does not match target '-m64'";
// fatal, EI_OSABI / EI_ABIVERSION not the CUDA values.
inline constexpr const char *kAbiDoesNotMatch = "Input file '{}' abi does not match";
// warning before kAbiDoesNotMatch when EI_OSABI is wrong.
inline constexpr const char *kExpected64BitAddress =
    "expected 64bit object '{}' to have EF_CUDA_64BIT_ADDRESS set";
// fatal, e_flags SM differs from -arch.
inline constexpr const char *kArchDoesNotMatch = "Input file '{}' arch does not match target '{}'";
} // namespace nvlink_msg

} // namespace dlink
