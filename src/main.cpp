// The dlink command: a client of libdlink's C interface (include/dlink/dlink.h)
// that hands it the nvlink command line and exits with the link's status.
#include "dlink/dlink.h"

#ifdef DLINK_WITH_MIMALLOC
#include <cstring>
#include <mimalloc.h>

namespace {
// mimalloc replaces malloc for the whole process (src/CMakeLists.txt). Its
// memory comes in 2 MiB pages where the kernel gives them (transparent huge
// pages, "madvise" mode included): a link touches its heap once, and 4 KiB
// page faults were a tenth to a fifth of its time (docs/performance.md).
// The option has to be set before anything allocates: the heap's first
// segment, taken by the libraries' constructors before `main`, holds all of
// a small link's memory. A function in the executable's .preinit_array runs
// before every shared library's constructor. It reads the environment it is
// handed (libc's may not be set up yet): MIMALLOC_LARGE_OS_PAGES, when set,
// is left for mimalloc to read, so MIMALLOC_LARGE_OS_PAGES=0 turns it off.
// A thread's first segment stays lazily committed (mimalloc's default
// eager_commit_delay): committing it at once gave each of 16 threads its own
// resident 2 MiB pages, 35-56 MiB more peak memory for no measured gain.
void prefer_large_pages(int, char **, char **envp) {
  static const char kName[] = "MIMALLOC_LARGE_OS_PAGES=";
  for (char **e = envp; e && *e; ++e)
    if (std::strncmp(*e, kName, sizeof kName - 1) == 0)
      return;
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
