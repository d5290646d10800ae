/* libdlink: the dlink device linker as a library, with a C interface.
 *
 * One dlink_link is one link, configured like an nvlink command line: the
 * same arguments give the same bytes as `dlink ARGS...` (and as nvlink).
 * Inputs may be memory buffers instead of files, the image may come back
 * in memory instead of going to -o's file, and every message is kept as a
 * structured record. Links are independent: several may run at once in
 * different threads (each dlink_link is used by one thread at a time).
 *
 *   dlink_link *l = dlink_create();
 *   dlink_add_argument(l, "-arch=sm_90");
 *   dlink_add_input(l, "a.cubin", bytes, size);   // as if a.cubin were on the command line
 *   dlink_add_argument(l, "-o");
 *   dlink_add_argument(l, "out.cubin");            // named, as nvlink requires; see below
 *   dlink_set_output_to_memory(l, 1);              // ...but kept in memory, no file written
 *   int status = dlink_run(l);                     // 0, 1 (fatal) or 255 (errors), as nvlink
 *   size_t n; const void *image = dlink_output(l, &n);
 *   dlink_destroy(l);
 *
 * A complete example: tests/capi/link_from_memory.c; docs/libdlink.md.
 */
#ifndef DLINK_DLINK_H
#define DLINK_DLINK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLINK_API_VERSION 1

typedef struct dlink_link dlink_link;

typedef enum dlink_severity {
  DLINK_INFO = 0,
  DLINK_WARNING = 1,
  DLINK_ERROR = 2,
  DLINK_FATAL = 3
} dlink_severity;

/* Flags for dlink_set_flags. */
enum {
  /* Print each message to stderr as it is made, as the dlink command does
   * (without it messages are only recorded). */
  DLINK_DIAGNOSTICS_TO_STDERR = 1u << 0,
  /* The process exits right after dlink_run: the link's memory is left to
   * the exit (faster for large links); the dlink_link may not be reused. */
  DLINK_LEAVE_STATE_TO_EXIT = 1u << 1
};

/* dlink's version, e.g. "0.1.0". */
const char *dlink_version(void);

/* A new link, or NULL when out of memory. */
dlink_link *dlink_create(void);
void dlink_destroy(dlink_link *link);

/* argv[0] of the emulated command line (default "nvlink"); its base name
 * prefixes messages and is recorded in the image, as with the command. */
int dlink_set_program_name(dlink_link *link, const char *argv0);

/* Appends one command-line argument (any nvlink option or input path). */
int dlink_add_argument(dlink_link *link, const char *arg);

/* Appends an input held in memory: the link reads `size` bytes at `data`
 * (copied here) wherever it would have read the file `name`, and `name`
 * takes that place in the command line. Its kind is found as for a file of
 * that name (extension and content: .cubin, .fatbin, .ptx, .o, .a, ...). */
int dlink_add_input(dlink_link *link, const char *name, const void *data, size_t size);

/* With `on`, the image is kept for dlink_output instead of being written
 * to -o's file (-o is still required and recorded, as nvlink records it). */
int dlink_set_output_to_memory(dlink_link *link, int on);

int dlink_set_flags(dlink_link *link, unsigned flags);

/* Runs the link once: the exit status nvlink would have (0; 1 after a
 * fatal error; 255 after errors). -h and -V print to stdout as the command
 * does. Returns -1 when called twice or with a NULL link. */
int dlink_run(dlink_link *link);

/* The image of a successful link with output to memory, else NULL. The
 * pointer lives until dlink_destroy. */
const void *dlink_output(const dlink_link *link, size_t *size);

/* The messages of the link, in order. */
size_t dlink_diagnostic_count(const dlink_link *link);
dlink_severity dlink_diagnostic_severity(const dlink_link *link, size_t index);
/* The message text without the "nvlink error   : " prefix. */
const char *dlink_diagnostic_message(const dlink_link *link, size_t index);
/* Every message as the command prints it on stderr, one per line. */
const char *dlink_diagnostics_text(const dlink_link *link);

#ifdef __cplusplus
}
#endif

#endif /* DLINK_DLINK_H */
