// libFuzzer target: the host object reader, src/input/host_object.cpp.
//
// read_host_object() on the input (x86-64/AArch64/PPC64 ELF, 32- or 64-bit,
// either byte order), the host-reference lists matched as kernel pruning
// does, and the first fatbin container of __nv_relfatbin read as the input
// stage reads it. Malformed input must be rejected with InputError; any
// other exception, crash, leak or undefined behaviour is a finding.
#include "fuzz_common.h"

#include "dlink/fatbin.h"
#include "dlink/host_object.h"

using namespace dlink;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::span<const u8> bytes = fuzz::as_span(data, size);
  (void)is_host_elf(bytes);
  HostObject obj;
  try {
    obj = read_host_object(bytes);
  } catch (const InputError &) {
    return 0;
  }
  (void)obj.host_refs.empty();
  (void)obj.host_refs.lists_kernels();
  for (std::string_view pattern : obj.host_refs.kernels_internal)
    for (std::string_view name : obj.host_refs.kernels_external)
      (void)host_ref_matches(pattern, name);
  if (obj.has_relfatbin && is_fatbin(obj.relfatbin_to_eof)) {
    Arena arena;
    try {
      for (FatbinEntry &e : read_fatbin(arena, obj.relfatbin_to_eof,
                                        FatbinReadOptions{.first_container_only = true, .decompress = true}))
        (void)e.arch_name();
    } catch (const InputError &) {
    }
  }
  return 0;
}
