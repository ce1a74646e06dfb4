/*
 * `cpaimon check WAREHOUSE DB.TABLE [--deep]`: verifies a table's invariants (table/check.h:
 * snapshot chain and hints, readable manifests, live files present with their recorded sizes and
 * footers that match their DataFileMeta (--deep: every page decodes), row-id
 * ranges and uniqueness, nextRowId, deletion vectors inside their anchors, schema ids), whoever
 * wrote the table. Prints one line per violation on stdout and exits 1 when there is any, 0 when
 * the table is clean (with a one-line summary), 2 on a usage error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cpaimon/catalog.h"
#include "table/check.h"

static const char check_usage[] =
    "usage: cpaimon check WAREHOUSE DB.TABLE [--deep] [--quiet]\n"
    "\n"
    "Verifies the table: snapshot chain and LATEST/EARLIEST hints, every manifest readable, every\n"
    "live file present with its recorded size, its Parquet footer readable with the recorded row\n"
    "count and the columns of its schema, row-id ranges disjoint (identical within a\n"
    "data-evolution group), _ROW_IDs unique and below nextRowId, deletion vectors readable,\n"
    "naming live files (their anchors) and positions inside them, valid schema ids. --deep also\n"
    "decodes every page of every live data file (reads all the data). Prints one line per\n"
    "violation and exits 1 if there is any; files no snapshot references (orphans) are fine.\n"
    "See docs/check.md.\n";

int cli_check(int argc, char **argv) {
  const char *pos[2] = {NULL, NULL};
  int n_pos = 0;
  bool quiet = false;
  cp_check_options opts = {false};
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(check_usage, stdout);
      return 0;
    } else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
      quiet = true;
    } else if (strcmp(argv[i], "--deep") == 0) {
      opts.deep = true;
    } else if (argv[i][0] == '-' || n_pos == 2) {
      fputs(check_usage, stderr);
      return 2;
    } else {
      pos[n_pos++] = argv[i];
    }
  }
  const char *dot = pos[1] ? strchr(pos[1], '.') : NULL;
  if (n_pos != 2 || !dot || dot == pos[1] || !dot[1]) {
    fputs(check_usage, stderr);
    return 2;
  }
  char db[256];
  snprintf(db, sizeof db, "%.*s", (int)(dot - pos[1]), pos[1]);
  paimon_error err;
  paimon_catalog *cat = NULL;
  cp_check_report rep;
  memset(&rep, 0, sizeof rep);
  int rc = cli_catalog_open(&cat, pos[0], &err);
  if (!rc) rc = cp_table_check(cat, db, dot + 1, &opts, &rep, &err);
  paimon_catalog_free(cat);
  if (rc) {
    fprintf(stderr, "cpaimon check: %s\n", err.message);
    return 1;
  }
  for (size_t i = 0; i < rep.n_violations; i++) printf("%s\n", rep.violations[i]);
  for (size_t i = 0; i < rep.n_warnings; i++) printf("warning: %s\n", rep.warnings[i]);
  int status = rep.n_violations ? 1 : 0;
  if (!quiet)
    fprintf(status ? stderr : stdout,
            "%s: %zu violation(s), %zu warning(s); %" PRId64 " snapshots, %" PRId64
            " live data files (%" PRId64 " opened, %" PRId64 " decoded), %" PRId64
            " deletion vectors, %" PRId64 " rows checked\n",
            pos[1], rep.n_violations, rep.n_warnings, rep.snapshots, rep.data_files, rep.opened,
            rep.decoded, rep.dvs, rep.rows);
  cp_check_report_free(&rep);
  return status;
}
