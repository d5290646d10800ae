// Host relocatable objects (the `.o` files nvcc writes): where their device
// code and host-reference lists are (formats.md §1, docs/notes/inputs.md).
//
// The reader is generic ELF: 32- and 64-bit, little- and big-endian, any
// e_machine (nvlink ignores e_machine and accepted an ELF32 x32 object). It
// validates what nvlink validates before it looks for device code: the
// section header table and every section that occupies file space must lie
// inside the file, and e_shentsize must match the class. A failure there is
// nvlink's fatal "Could not find fatbin in '<file>'" even for objects without
// device code. A missing or out-of-range e_shstrndx means "no section names",
// so no device code (silently), as in nvlink.
//
// Device code is the `__nv_relfatbin` section (rdc objects). `.nv_fatbin`
// (whole-program objects, `nvcc -dlink` stubs) is exposed too, but nvlink
// ignores it entirely: such objects contribute no device code. nvlink reads
// only the FIRST fatbin container at the section's file offset, using the
// container's own size and ignoring sh_size and sh_type; relfatbin_to_eof is
// the span to parse for that behaviour (read_fatbin with
// first_container_only). Objects with e_type other than ET_REL were ignored
// by nvlink (no device code linked, no message).
#pragma once

#include "dlink/common.h"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace dlink {

// The six host-reference lists. Each entry is a glob pattern ('*' matches any
// sequence); an empty section (a single NUL) is an empty list.
struct HostRefs {
  bool present = false; // any .nvHR* section exists (rdc objects have all six)
  std::vector<std::string_view> kernels_internal;   // .nvHRKI
  std::vector<std::string_view> kernels_external;   // .nvHRKE
  std::vector<std::string_view> device_internal;    // .nvHRDI
  std::vector<std::string_view> device_external;    // .nvHRDE
  std::vector<std::string_view> constant_internal;  // .nvHRCI
  std::vector<std::string_view> constant_external;  // .nvHRCE
  // Sizes of .nvHRKI / .nvHRKE. An empty list is one NUL byte; after `ld -r`
  // the sections are concatenated ("\0\0"): still no pattern, but nvlink
  // then treats the object as listing kernels (and keeps none of them).
  u64 kernels_internal_size = 0;
  u64 kernels_external_size = 0;

  bool empty() const;
  // nvlink's trigger for host-reference kernel pruning: a kernel list
  // section longer than the single NUL of an empty list.
  bool lists_kernels() const { return kernels_internal_size > 1 || kernels_external_size > 1; }
};

struct HostObject {
  bool is64 = true;
  bool big_endian = false;
  u16 type = 0;    // e_type (1 = ET_REL)
  u16 machine = 0; // e_machine (62 = x86-64, 183 = AArch64, 21 = PPC64)

  // __nv_relfatbin: exact section bytes (sh_size; parse this one to walk
  // every container after `ld -r`), and the bytes from the section's offset
  // to the end of the file (what nvlink parses: first container only).
  bool has_relfatbin = false;
  std::span<const u8> relfatbin;
  std::span<const u8> relfatbin_to_eof;
  // .nv_fatbin (ignored by nvlink).
  bool has_nv_fatbin = false;
  std::span<const u8> nv_fatbin;

  // __nv_module_id: the first NUL-terminated ID, and all of them (after
  // `ld -r` the section holds several, each NUL-terminated and zero-padded).
  std::optional<std::string_view> module_id;
  std::vector<std::string_view> module_ids;

  HostRefs host_refs;

  bool is_relocatable() const { return type == 1; }
};

class HostObjectError : public InputError {
public:
  using InputError::InputError;
};

// Any ELF file that is not EM_CUDA.
bool is_host_elf(std::span<const u8> bytes);

// Throws HostObjectError for malformed headers (nvlink: "Could not find fatbin
// in '<file>'", then fatal "elfLink internal error").
HostObject read_host_object(std::span<const u8> bytes);

// Splits a NUL-separated list, dropping empty strings (padding).
std::vector<std::string_view> split_nul_list(std::span<const u8> bytes);

// Whether `name` matches a .nvHR glob pattern ('*' = any sequence, nothing
// else is special).
bool host_ref_matches(std::string_view pattern, std::string_view name);

} // namespace dlink
