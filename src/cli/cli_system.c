/*
 * `cpaimon cat WAREHOUSE 'db.t$snapshots'`: a system table (include/cpaimon/system_table.h) printed
 * like a data table, as a Spark show() table, CSV or JSON lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/print.h"
#include "arrow/stream.h"
#include "base/buf.h"
#include "cli/cli.h"
#include "cli/cli_system.h"
#include "cpaimon/system_table.h"

static int fail(const paimon_error *err) {
  fprintf(stderr, "cpaimon: %s\n", err->message);
  return 1;
}

/* Splits "a,b,c" into `cols` (pointers into `copy`). */
static size_t split_columns(char *copy, char **cols, size_t max) {
  size_t n = 0;
  char *save = NULL;
  for (char *c = strtok_r(copy, ",", &save); c && n < max; c = strtok_r(NULL, ",", &save))
    cols[n++] = c;
  return n;
}

int cli_print_stream(struct ArrowArrayStream *stream, int64_t limit, const char *format,
                     cp_buf *out, paimon_error *err) {
  if (strcmp(format, "csv") == 0) return cp_print_csv_stream(out, stream, true, limit, err);
  if (strcmp(format, "json") == 0) return cp_print_jsonl_stream(out, stream, limit, err);
  cp_print_options po = {limit, 20};
  return cp_print_table_stream(out, stream, &po, err);
}

int cli_cat_system(const char *warehouse, const char *ident, const char *columns, bool row_tracking,
                   int64_t snapshot, int64_t limit, const char *format) {
  paimon_error err;
  if (row_tracking || snapshot) {
    fprintf(stderr,
            "cpaimon cat: %s is a system table: --with-row-tracking and --snapshot do not "
            "apply (it shows the table's latest state)\n",
            ident);
    return 2;
  }
  paimon_catalog *cat = NULL;
  paimon_system_table *st = NULL;
  struct ArrowArrayStream stream;
  memset(&stream, 0, sizeof stream);
  char *copy = columns ? strdup(columns) : NULL, *cols[256];
  size_t n = copy ? split_columns(copy, cols, 256) : 0;
  cp_buf out = CP_BUF_INIT;
  int rc = cli_catalog_open(&cat, warehouse, &err);
  if (!rc) rc = paimon_catalog_get_system_table(cat, ident, &st, &err);
  if (!rc)
    rc = paimon_system_table_read(st, copy ? (const char *const *)cols : NULL, n, NULL, &stream,
                                  &err);
  if (!rc) rc = cli_print_stream(&stream, limit, format, &out, &err);
  if (!rc && out.len) fwrite(out.data, 1, out.len, stdout);
  cp_buf_free(&out);
  cp_stream_release(&stream);
  paimon_system_table_free(st);
  paimon_catalog_free(cat);
  free(copy);
  return rc ? fail(&err) : 0;
}
