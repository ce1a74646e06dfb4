/*
 * Numeric values of command-line flags, parsed strictly (cli.h cli_parse_int): `--snapshot abc`,
 * `--snapshot ''`, `2x` or `1.5` are errors that name the flag, never a silent default, a prefix
 * or a truncation.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"

int cli_parse_int(const char *cmd, const char *flag, const char *text, int64_t min, int64_t max,
                  int64_t *out) {
  /* strtoll would skip leading blanks and take a '+'; a flag's value is plain digits. */
  const char *digits = text[0] == '-' ? text + 1 : text;
  char *end = NULL;
  errno = 0;
  long long v = *digits >= '0' && *digits <= '9' ? strtoll(text, &end, 10) : 0;
  bool ok = end && *end == '\0' && errno == 0 && v >= min && v <= max;
  if (ok) {
    *out = v;
    return 0;
  }
  char range[96];
  if (min == 0 && max == INT64_MAX)
    snprintf(range, sizeof range, "a whole number (0 or more)");
  else if (min == 1 && max == INT64_MAX)
    snprintf(range, sizeof range, "a whole number (1 or more)");
  else
    snprintf(range, sizeof range, "a whole number from %" PRId64 " to %" PRId64, min, max);
  fprintf(stderr, "cpaimon %s: %s needs %s, not '%s'\n", cmd, flag, range, text);
  return -1;
}
