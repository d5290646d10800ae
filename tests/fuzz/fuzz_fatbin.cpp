// libFuzzer target: the fatbin container reader, src/input/fatbin.cpp.
//
// Reads the input as nvlink does (first container, lazy decompression) and
// as the tools do (every container, every entry decompressed: the LZ4 block
// and zstd frame decoders run on every compressed payload), then selects an
// entry for a few targets and decompresses the chosen one. Malformed input
// must be rejected with InputError (FatbinError); any other exception, crash,
// leak or undefined behaviour is a finding.
#include "fuzz_common.h"

#include "dlink/arch.h"
#include "dlink/fatbin.h"

using namespace dlink;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const Arch kTargets[] = {*parse_arch("sm_75"), *parse_arch("sm_89"), *parse_arch("sm_90a"),
                                  *parse_arch("sm_100f"), *parse_arch("sm_121")};
  std::span<const u8> bytes = fuzz::as_span(data, size);
  (void)is_fatbin(bytes);
  {
    Arena arena;
    try {
      for (FatbinEntry &e : read_fatbin(arena, bytes, FatbinReadOptions{.first_container_only = false,
                                                                        .decompress = true})) {
        (void)e.arch_name();
        (void)e.variant();
        (void)e.ptx_text();
      }
    } catch (const InputError &) {
    }
  }
  Arena arena;
  std::vector<FatbinEntry> entries;
  try {
    entries = read_fatbin(arena, bytes, FatbinReadOptions{.first_container_only = true, .decompress = false});
  } catch (const InputError &) {
    return 0;
  }
  for (const Arch &target : kTargets) {
    const FatbinEntry *chosen = select_fatbin_entry(entries, target);
    if (!chosen)
      continue;
    FatbinEntry &e = entries[static_cast<size_t>(chosen - entries.data())];
    try {
      decompress_fatbin_entry(arena, e);
      decompress_fatbin_entry(arena, e); // idempotent
      (void)e.ptx_text();
    } catch (const InputError &) {
    }
  }
  return 0;
}
