// The dlink command: a client of libdlink's C interface (include/dlink/dlink.h)
// that hands it the nvlink command line and exits with the link's status.
#include "dlink/dlink.h"

#ifdef DLINK_WITH_MIMALLOC
#include <cstdlib>
#include <mimalloc.h>
#endif

int main(int argc, char **argv) {
#ifdef DLINK_WITH_MIMALLOC
  // mimalloc replaces malloc for the whole process (src/CMakeLists.txt).
  // Its memory in 2 MiB pages where the kernel gives them (transparent huge
  // pages, "madvise" mode included): a large link touches a few hundred MiB
  // once, and its 4 KiB page faults were a tenth of its time (measured:
  // docs/performance.md). MIMALLOC_LARGE_OS_PAGES=0 turns it off.
  // A thread's first segment stays lazily committed (mimalloc's default
  // eager_commit_delay): committing it at once, in large pages, gave each
  // of 16 threads its own resident 2 MiB pages, 35-56 MiB more peak memory
  // for no measured gain (docs/performance.md).
  if (!std::getenv("MIMALLOC_LARGE_OS_PAGES"))
    mi_option_enable(mi_option_large_os_pages);
#endif
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
