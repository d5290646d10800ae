// The dlink command: a client of libdlink's C interface (include/dlink/dlink.h)
// that hands it the nvlink command line and exits with the link's status.
#include "dlink/dlink.h"

#ifdef DLINK_WITH_MIMALLOC
#include <cstring>
#include <mimalloc.h>
#include <sys/stat.h>

namespace {
// mimalloc replaces malloc for the whole process (src/CMakeLists.txt). A link
// whose inputs bring a megabyte or more takes its heap in 2 MiB pages where
// the kernel gives them (transparent huge pages, "madvise" mode included): it
// touches its heap once, and 4 KiB page faults were a tenth of its time. A
// smaller link stays in 4 KiB pages: there neither size won across the kinds
// of link measured (16-core machine: docs/performance.md).
// The choice is made before anything allocates, since the heap's first
// segment, taken by the libraries' constructors before `main`, holds all of a
// small link's memory and a good part of a larger one's: a function in the
// executable's .preinit_array runs before every shared library's
// constructor. It reads the arguments and the environment it is handed
// (libc's may not be set up yet). The inputs' size is the sum over the
// arguments that name regular files, the output file's name aside; it only
// chooses page sizes, never what is written. MIMALLOC_LARGE_OS_PAGES, when
// set, is left for mimalloc to read (=0 turns large pages off, =1 on).
// A thread's first segment stays lazily committed (mimalloc's default
// eager_commit_delay): committing it at once gave each of 16 threads its own
// resident 2 MiB pages, 35-56 MiB more peak memory for no measured gain.
constexpr off_t kLargePagesInputBytes = off_t{1} << 20;

void prefer_large_pages(int argc, char **argv, char **envp) {
  static const char kName[] = "MIMALLOC_LARGE_OS_PAGES=";
  for (char **e = envp; e && *e; ++e)
    if (std::strncmp(*e, kName, sizeof kName - 1) == 0)
      return;
  off_t bytes = 0;
  for (int i = 1; i < argc && bytes < kLargePagesInputBytes; i++) {
    const char *arg = argv[i];
    if (arg[0] == '-') {
      if (std::strcmp(arg, "-o") == 0 || std::strcmp(arg, "--output-file") == 0)
        i++;
      continue;
    }
    struct stat st;
    if (::stat(arg, &st) == 0 && S_ISREG(st.st_mode))
      bytes += st.st_size;
  }
  if (bytes >= kLargePagesInputBytes)
    mi_option_enable(mi_option_large_os_pages);
}
[[gnu::section(".preinit_array"), gnu::used]] void (*const kPreinit)(int, char **,
                                                                      char **) =
    prefer_large_pages;
} // namespace
#endif

int main(int argc, char **argv) {
  dlink_link *link = dlink_create();
  if (!link)
    return 1;
  // Messages go to stderr as they are made; the process exit reclaims the
  // link's memory (no dlink_destroy).
  dlink_set_flags(link, DLINK_DIAGNOSTICS_TO_STDERR | DLINK_LEAVE_STATE_TO_EXIT);
  if (argc > 0)
    dlink_set_program_name(link, argv[0]);
  for (int i = 1; i < argc; i++)
    dlink_add_argument(link, argv[i]);
  return dlink_run(link);
}
