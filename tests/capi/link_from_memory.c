/* Example of libdlink's C interface (include/dlink/dlink.h): an nvlink command
 * line whose input files are read by this program and handed to the linker
 * as memory buffers; the image comes back in memory and this program writes
 * it to the -o path; every message is printed as "severity: message".
 *
 *   link_from_memory -arch=sm_90 a.cubin b.cubin -o out.cubin
 *
 * Exits with the link's status (0, 1 or 255, as nvlink). */
#include "dlink/dlink.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_input_name(const char *arg) {
  static const char *const kinds[] = {".cubin", ".fatbin", ".ptx", ".o", ".a"};
  size_t n = strlen(arg);
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    size_t k = strlen(kinds[i]);
    if (arg[0] != '-' && n > k && strcmp(arg + n - k, kinds[i]) == 0)
      return 1;
  }
  return 0;
}

/* The whole file, or NULL. */
static void *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  void *data = malloc(n > 0 ? (size_t)n : 1);
  if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    data = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return data;
}

int main(int argc, char **argv) {
  static const char *const severity[] = {"info", "warning", "error", "fatal"};
  const char *output = NULL;
  dlink_link *link = dlink_create();
  if (!link)
    return 1;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "-o") == 0 && i + 1 < argc)
      output = argv[i + 1];
    size_t size;
    void *data = NULL;
    if (is_input_name(arg) && (i == 1 || strcmp(argv[i - 1], "-o") != 0) &&
        (data = read_file(arg, &size)) != NULL) {
      dlink_add_input(link, arg, data, size); /* copied: the buffer may go */
      free(data);
    } else {
      dlink_add_argument(link, arg);
    }
  }
  dlink_set_output_to_memory(link, 1);
  int status = dlink_run(link);
  for (size_t i = 0; i < dlink_diagnostic_count(link); i++)
    printf("%s: %s\n", severity[dlink_diagnostic_severity(link, i)], dlink_diagnostic_message(link, i));
  size_t size;
  const void *image = dlink_output(link, &size);
  if (image && output) {
    FILE *f = fopen(output, "wb");
    if (!f || fwrite(image, 1, size, f) != size) {
      fprintf(stderr, "link_from_memory: cannot write %s\n", output);
      status = 1;
    }
    if (f)
      fclose(f);
  }
  dlink_destroy(link);
  return status;
}
