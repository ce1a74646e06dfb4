/* Sub-commands of the `cpaimon` program; see main.c for the dispatch table. */
#ifndef CP_CLI_H
#define CP_CLI_H

struct cli_command {
  const char *name;
  const char *summary;
  int (*run)(int argc, char **argv); /* argv[0] is the command name; returns the exit status */
};

int cli_version(int argc, char **argv);
int cli_parquet(int argc, char **argv); /* cli/parquet.c */
int cli_avro(int argc, char **argv);    /* cli/avro.c */
int cli_table(int argc, char **argv);   /* cli/table.c */
int cli_cat(int argc, char **argv);     /* cli/table.c */
int cli_sql(int argc, char **argv);     /* cli/sql.c */
int cli_check(int argc, char **argv);   /* cli/check.c */

#include <stdbool.h>

#include "cpaimon/catalog.h"

/* cli/catalog_opts.c: takes `--catalog KEY=VALUE` and `--catalog-file FILE` out of argv (anywhere
 * on the line); 0, or the exit status of a usage error. */
int cli_take_catalog_options(int *argc, char **argv);
/* Opens the catalog at `warehouse` (may be NULL when a --catalog warehouse=... was given) with the
 * options taken from the command line. */
int cli_catalog_open(paimon_catalog **out, const char *warehouse, paimon_error *err);

#endif
