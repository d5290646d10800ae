// The parallel part of reading inputs (input_files.cpp), and the file
// classification both parts share.
#pragma once

#include "link_context.h"
#include "ptx_jit.h"

#include <sys/stat.h>

#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace dlink::inputs {

// Non-archive inputs shorter than this cannot be opened (nvlink reads a
// 56-byte header first).
constexpr size_t kMinInputSize = 56;

enum class Ext { None, Cubin, Fatbin, Ptx, O, So, Other };

// The extension: the text after the last '.' of the base name.
Ext extension_of(std::string_view path);

inline bool has_elf_magic(std::span<const u8> b) {
  return b.size() >= 4 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F';
}

// ELF that nvlink treats as a host object: a valid class and data encoding
// and not EM_CUDA. (ELF magic with other class/data bytes is ignored.)
bool is_host_object_file(std::span<const u8> b);

// PTX text: after blanks and comments, the ".version" directive.
bool is_ptx_text(std::span<const u8> bytes);

// What a command-line file is, by its extension and its bytes, as nvlink
// decides it; the reader in link order (which reports the errors) and the
// prefetch (which skips them) both ask this. Ignored: nothing is read.
enum class FileKind {
  Ignored, Cubin, Fatbin, PtxText, HostObject, Archive,
  CubinNotElf, CubinNotDevice, NotFatbin, PtxNotRecognized, // errors
};
FileKind classify_file(std::string_view path, std::span<const u8> bytes);

// Drop the pages of the mapped input files (ctx.mapped_inputs) from the
// resident set: all of them, or the whole pages of some inputs' bytes (those
// that lie in a mapped file; adjacent ones in one call). They are clean
// pages of read-only private mappings of regular files: a later read faults
// them in again from the page cache, with the same bytes. The validation
// releases the inputs it checked and the merge those it took, a group at a
// time, and the merge all of them once the code bytes are copied (before
// the conversions) and again at its end, when what the output keeps has
// been copied (the small sections, names included, were copied when the
// input was read: elf.h read_elf), so that the inputs do not add up in the
// peak resident memory.
void release_input_pages(const Context &ctx);
void release_input_pages(const Context &ctx, std::span<const std::span<const u8>> inputs);

// The whole of a regular file, mapped (owned by `arena`), or nullopt.
std::optional<std::span<const u8>> map_file(Arena &arena, const std::string &path);

// Before the inputs are read in link order (InputReader, one thread), the
// work that depends on nothing but one file's bytes is done for all of them
// at once (ctx.par): the command-line files are mapped, and every cubin, host
// object, fatbin and member of a user archive among them is parsed as far as
// its device code: the fatbin entry nvlink would take, decompressed,
// compiled by ptxas when it is PTX, and the cubin's ELF headers and symbols.
// The results are kept by the address of the bytes they were computed from;
// the reader in link order takes them instead of computing them again, and
// computes (and reports) as before whatever was not prefetched or failed.
// Nothing here writes a message or changes what is linked; which member of
// a system library is read, in which order, stays the reader's decision.

struct BytesKey {
  const void *data;
  size_t size;
  bool operator==(const BytesKey &) const = default;
};
struct BytesKeyHash {
  size_t operator()(const BytesKey &k) const {
    return std::hash<const void *>()(k.data) ^ (std::hash<size_t>()(k.size) * 0x9e3779b97f4a7c15ull);
  }
};
inline BytesKey key_of(std::span<const u8> b) { return {b.data(), b.size()}; }

struct ParsedCubin {
  ElfFile elf;
  std::vector<ElfSymbol> symbols;
};

struct PtxKey {
  const void *data;
  size_t size;
  std::string options;
  bool operator==(const PtxKey &) const = default;
};
struct PtxKeyHash {
  size_t operator()(const PtxKey &k) const {
    return BytesKeyHash()({k.data, k.size}) ^ std::hash<std::string>()(k.options);
  }
};

class Prefetch {
public:
  struct File {
    struct stat st {};
    std::span<const u8> bytes;
  };

  void run(Context &ctx);

  const File *file(const std::string &path) const {
    auto it = files_.find(path);
    return it == files_.end() ? nullptr : &it->second;
  }
  // The decompressed payload of a fatbin entry stored at `stored`, if known.
  std::optional<std::span<const u8>> payload(std::span<const u8> stored) const {
    auto it = payloads_.find(key_of(stored));
    if (it == payloads_.end())
      return std::nullopt;
    return it->second;
  }
  // The ELF headers and symbols of a cubin, once (a second use parses again).
  std::optional<ParsedCubin> take_cubin(std::span<const u8> bytes) {
    auto it = cubins_.find(key_of(bytes));
    if (it == cubins_.end())
      return std::nullopt;
    std::optional<ParsedCubin> out(std::move(it->second));
    cubins_.erase(it);
    return out;
  }
  std::optional<PtxasRun> take_ptxas_run(std::string_view ptx, std::string_view options) {
    auto it = ptx_.find(PtxKey{ptx.data(), ptx.size(), std::string(options)});
    if (it == ptx_.end())
      return std::nullopt;
    std::optional<PtxasRun> out(std::move(it->second));
    ptx_.erase(it);
    return out;
  }

private:
  enum class Kind { Cubin, Fatbin, Host, PtxText };
  struct Unit {
    Kind kind;
    std::span<const u8> bytes;
    Arena *arena = nullptr;
    // Results.
    std::vector<std::pair<BytesKey, std::span<const u8>>> payloads;
    std::vector<std::pair<BytesKey, ParsedCubin>> cubins;
    std::vector<std::pair<PtxKey, PtxasRun>> ptx;
  };

  void add_units(Context &ctx, Arena &scratch, const std::string &path, std::span<const u8> bytes,
                 std::vector<Unit> &units);
  static void compute(const Context &ctx, Unit &u);
  static void parse_cubin(Unit &u, std::span<const u8> bytes);
  static void use_fatbin(const Context &ctx, Unit &u, std::span<const u8> bytes);

  std::unordered_map<std::string, File> files_;
  std::unordered_map<BytesKey, std::span<const u8>, BytesKeyHash> payloads_;
  std::unordered_map<BytesKey, ParsedCubin, BytesKeyHash> cubins_;
  std::unordered_map<PtxKey, PtxasRun, PtxKeyHash> ptx_;
};

} // namespace dlink::inputs
