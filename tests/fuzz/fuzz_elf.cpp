// libFuzzer target: the CUDA ELF (cubin) reader, src/elf/elf.cpp.
//
// read_elf() on the input, then every table the linker decodes from a cubin:
// symbols (with their string table), relocations, notes, .nv.info /
// .nv.compat attribute records; the file is written back with write_elf()
// and elf_image(). Malformed input must be rejected with InputError; any
// other exception, crash, leak or undefined behaviour is a finding.
#include "fuzz_common.h"

#include "dlink/eiattr.h"
#include "dlink/elf.h"

using namespace dlink;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::span<const u8> bytes = fuzz::as_span(data, size);
  (void)is_cuda_elf(bytes);
  ElfFile f;
  try {
    f = read_elf(bytes);
  } catch (const InputError &) {
    return 0;
  }
  (void)f.find_section(".nv.info");
  (void)f.sm();
  for (const ElfSection &sec : f.sections) {
    (void)occupies_file_space(sec);
    try {
      switch (sec.type) {
      case SHT_SYMTAB:
      case SHT_CUDA_MERC_SYMTAB:
        (void)read_symbols(f, sec);
        break;
      case SHT_REL:
      case SHT_RELA:
      case SHT_CUDA_RESOLVED_RELA:
      case SHT_CUDA_MERC_RELA:
      case SHT_CUDA_MERC_RESOLVED_RELA:
        (void)read_relocs(sec);
        break;
      case SHT_NOTE:
        (void)read_notes(sec);
        break;
      case SHT_CUDA_INFO:
      case SHT_CUDA_COMPAT:
      case SHT_CUDA_MERC_INFO:
        for (const EiRecord &r : parse_eiattrs(sec.data)) {
          (void)eiattr_name(r.attr);
          (void)format_eiattr_value(r, [](u32 i) { return std::to_string(i); });
          (void)format_eicompat_value(r);
        }
        break;
      default:
        break;
      }
    } catch (const InputError &) {
    }
  }
  std::vector<u8> out = write_elf(f);
  ElfImage image = elf_image(f);
  size_t image_size = 0;
  for (std::span<const u8> piece : image.pieces)
    image_size += piece.size();
  // The two writers describe the same bytes.
  if (image_size != out.size())
    __builtin_trap();
  return 0;
}
