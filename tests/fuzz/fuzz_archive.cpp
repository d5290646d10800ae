// libFuzzer target: the ar archive reader, src/input/archive.cpp.
//
// read_archive() on the input with the option sets the input stage and the
// tools use (nvlink's and GNU ar's thin-member lookup, stopping at the first
// non-ELF member or not, BSD names). Thin archives name member files: the
// process works in a scratch directory holding two small members (a.o,
// b.cubin) so that the thin path is exercised without touching real files.
// Malformed input must be rejected with InputError (ArchiveError); any other
// exception, crash, leak or undefined behaviour is a finding.
#include "fuzz_common.h"

#include "dlink/archive.h"

#include <array>

using namespace dlink;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  const auto &dir = fuzz::scratch_dir();
  std::array<u8, 64> elf{0x7f, 'E', 'L', 'F', 2, 1, 1};
  fuzz::write_file(dir / "a.o", elf);
  fuzz::write_file(dir / "b.cubin", std::span<const u8>(elf).first(8));
  std::filesystem::current_path(dir);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::span<const u8> bytes = fuzz::as_span(data, size);
  (void)is_archive(bytes);
  (void)is_thin_archive(bytes);
  const std::string archive_path = (fuzz::scratch_dir() / "libfuzz.a").string();
  for (int variant = 0; variant < 3; variant++) {
    ArchiveReadOptions o;
    o.thin_base = variant == 1 ? ArchiveReadOptions::ThinBase::ArchiveDir : ArchiveReadOptions::ThinBase::Cwd;
    o.stop_at_non_elf = variant != 2;
    o.bsd_names = variant == 2;
    Arena arena;
    try {
      for (const ArchiveMember &m : read_archive(arena, bytes, archive_path, o))
        (void)m.is_elf();
    } catch (const InputError &) {
      continue;
    }
  }
  return 0;
}
